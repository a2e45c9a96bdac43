// <library_types.h> on the CPU backend: how CUDA's libraries (cuBLAS,
// cublasLt) name a matrix's element type, with the toolkit's values.
#pragma once

typedef enum cudaDataType_t {
    CUDA_R_16F = 2,  // __half
    CUDA_C_16F = 6,
    CUDA_R_16BF = 14,  // __nv_bfloat16
    CUDA_C_16BF = 15,
    CUDA_R_32F = 0,  // float
    CUDA_C_32F = 4,
    CUDA_R_64F = 1,  // double
    CUDA_C_64F = 5,
    CUDA_R_8I = 3,
    CUDA_C_8I = 7,
    CUDA_R_8U = 8,
    CUDA_C_8U = 9,
    CUDA_R_32I = 10,
    CUDA_C_32I = 11,
} cudaDataType;

typedef enum libraryPropertyType_t { MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL } libraryPropertyType;
