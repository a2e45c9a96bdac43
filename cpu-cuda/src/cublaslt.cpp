// cuBLASLt on the CPU backend (include/cublasLt.h says what is here): its
// descriptors are plain structures, and cublasLtMatmul is the GEMM of
// cublas_shared.h with cuBLASLt's epilogues.
#include <cublasLt.h>

#include <cstring>
#include <optional>
#include <string>

#include "cublas_shared.h"

struct cublasLtContext {};

// Each field as wide as cuBLASLt's attribute for it (the get and set calls copy its bytes).
struct cublasLtMatrixLayoutOpaque_t {
    cudaDataType type;
    int32_t order = CUBLASLT_ORDER_COL;
    uint64_t rows, cols;
    int64_t ld;
    int32_t batch_count = 1;
    int64_t batch_stride = 0;
};

struct cublasLtMatmulDescOpaque_t {
    int32_t compute;
    cudaDataType scale_type;
    int32_t pointer_mode = CUBLASLT_POINTER_MODE_HOST;
    int32_t transa = CUBLAS_OP_N, transb = CUBLAS_OP_N, transc = CUBLAS_OP_N;
    uint32_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
    const void* bias = nullptr;
    int64_t bias_batch_stride = 0;
    int32_t bias_type = -1;  // D's type, unless set
    void* aux = nullptr;
    int64_t aux_ld = 0;
    int64_t aux_batch_stride = 0;
    int32_t aux_type = -1;  // D's type, unless set
    int32_t sm_count_target = 0;
    int8_t fast_accum = 0;
};

struct cublasLtMatmulPreferenceOpaque_t {
    uint32_t search_mode = 0;
    uint64_t max_workspace_bytes = 0;
    uint32_t reduction_scheme_mask = 0;
    uint32_t min_alignment[4] = {256, 256, 256, 256};
};

namespace {

using namespace warpdrill::cpu::detail;

LiveHandles<cublasLtContext> handles;
bool is_live(cublasLtHandle_t handle) { return handles.holds(handle); }

// An attribute's value to or from its field: the size must be the field's.
template <class Field>
cublasStatus_t set_field(Field& field, const void* buf, size_t size) {
    if (!buf || size != sizeof(Field)) return CUBLAS_STATUS_INVALID_VALUE;
    std::memcpy(&field, buf, sizeof(Field));
    return CUBLAS_STATUS_SUCCESS;
}
// Where buf is null and size 0, says only how many bytes the value has.
template <class Field>
cublasStatus_t get_field(const Field& field, void* buf, size_t size, size_t* written) {
    if (written) *written = sizeof(Field);
    if (!buf && size == 0) return written ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE;
    if (!buf || size < sizeof(Field)) return CUBLAS_STATUS_INVALID_VALUE;
    std::memcpy(buf, &field, sizeof(Field));
    return CUBLAS_STATUS_SUCCESS;
}

// The attribute's field in `layout` or `desc`, handed to `visit`; INVALID_VALUE where there is none.
template <class Visit>
cublasStatus_t with_field(cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attr, Visit visit) {
    if (!layout) return CUBLAS_STATUS_INVALID_VALUE;
    switch (attr) {
        case CUBLASLT_MATRIX_LAYOUT_TYPE: return visit(layout->type);
        case CUBLASLT_MATRIX_LAYOUT_ORDER: return visit(layout->order);
        case CUBLASLT_MATRIX_LAYOUT_ROWS: return visit(layout->rows);
        case CUBLASLT_MATRIX_LAYOUT_COLS: return visit(layout->cols);
        case CUBLASLT_MATRIX_LAYOUT_LD: return visit(layout->ld);
        case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT: return visit(layout->batch_count);
        case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET: return visit(layout->batch_stride);
        default: return CUBLAS_STATUS_INVALID_VALUE;
    }
}
template <class Visit>
cublasStatus_t with_field(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr, Visit visit) {
    if (!desc) return CUBLAS_STATUS_INVALID_VALUE;
    switch (attr) {
        case CUBLASLT_MATMUL_DESC_COMPUTE_TYPE: return visit(desc->compute);
        case CUBLASLT_MATMUL_DESC_SCALE_TYPE: return visit(desc->scale_type);
        case CUBLASLT_MATMUL_DESC_POINTER_MODE: return visit(desc->pointer_mode);
        case CUBLASLT_MATMUL_DESC_TRANSA: return visit(desc->transa);
        case CUBLASLT_MATMUL_DESC_TRANSB: return visit(desc->transb);
        case CUBLASLT_MATMUL_DESC_TRANSC: return visit(desc->transc);
        case CUBLASLT_MATMUL_DESC_EPILOGUE: return visit(desc->epilogue);
        case CUBLASLT_MATMUL_DESC_BIAS_POINTER: return visit(desc->bias);
        case CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE: return visit(desc->bias_batch_stride);
        case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE: return visit(desc->bias_type);
        case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER: return visit(desc->aux);
        case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD: return visit(desc->aux_ld);
        case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE: return visit(desc->aux_batch_stride);
        case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE: return visit(desc->aux_type);
        case CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET: return visit(desc->sm_count_target);
        case CUBLASLT_MATMUL_DESC_FAST_ACCUM: return visit(desc->fast_accum);
        default: return CUBLAS_STATUS_INVALID_VALUE;
    }
}

bool adds_bias(uint32_t epilogue) {
    return epilogue == CUBLASLT_EPILOGUE_BIAS || epilogue == CUBLASLT_EPILOGUE_RELU_BIAS ||
           epilogue == CUBLASLT_EPILOGUE_GELU_BIAS || epilogue == CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
}
bool writes_aux(uint32_t epilogue) {
    return epilogue == CUBLASLT_EPILOGUE_GELU_AUX || epilogue == CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
}

// The epilogue as the GEMM runs it, or nullopt where the backend lacks it.
std::optional<Epilogue> epilogue_of(const cublasLtMatmulDescOpaque_t& desc, dense::Element d_element) {
    Epilogue epilogue;
    switch (desc.epilogue) {
        case CUBLASLT_EPILOGUE_DEFAULT:
        case CUBLASLT_EPILOGUE_BIAS: break;
        case CUBLASLT_EPILOGUE_RELU:
        case CUBLASLT_EPILOGUE_RELU_BIAS: epilogue.activation = Epilogue::Activation::relu; break;
        case CUBLASLT_EPILOGUE_GELU:
        case CUBLASLT_EPILOGUE_GELU_BIAS:
        case CUBLASLT_EPILOGUE_GELU_AUX:
        case CUBLASLT_EPILOGUE_GELU_AUX_BIAS: epilogue.activation = Epilogue::Activation::gelu; break;
        default: return std::nullopt;
    }
    if (adds_bias(desc.epilogue)) {
        const std::optional<dense::Element> bias_element =
            desc.bias_type < 0 ? d_element : element_of(static_cast<cudaDataType>(desc.bias_type));
        if (!bias_element) return std::nullopt;
        epilogue.bias = {desc.bias, *bias_element, 1, desc.bias_batch_stride};
    }
    if (writes_aux(desc.epilogue)) {
        const std::optional<dense::Element> aux_element =
            desc.aux_type < 0 ? d_element : element_of(static_cast<cudaDataType>(desc.aux_type));
        if (!aux_element) return std::nullopt;
        epilogue.aux = {desc.aux, *aux_element, desc.aux_ld, desc.aux_batch_stride};
    }
    return epilogue;
}

bool is_operation(int32_t op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; }

// The matmul's GEMM, its pointers not yet filled in; a status where cuBLASLt
// refuses it, or the backend lacks what it asks for (with a warning then).
struct Planned {
    cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
    Gemm gemm;
};
Planned refused(cublasStatus_t status) {
    Planned planned;
    planned.status = status;
    return planned;
}
Planned plan(const HostCall& call, cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t a,
             cublasLtMatrixLayout_t b, cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d) {
    if (!desc || !a || !b || !c || !d) return refused(CUBLAS_STATUS_INVALID_VALUE);
    if (!is_operation(desc->transa) || !is_operation(desc->transb) || desc->transc != CUBLAS_OP_N)
        return refused(CUBLAS_STATUS_INVALID_VALUE);
    Gemm gemm;
    gemm.a_transposed = desc->transa != CUBLAS_OP_N;
    gemm.b_transposed = desc->transb != CUBLAS_OP_N;
    gemm.m = static_cast<long long>(d->rows), gemm.n = static_cast<long long>(d->cols);
    gemm.k = static_cast<long long>(gemm.a_transposed ? a->rows : a->cols);
    const bool shapes_agree = (gemm.a_transposed ? a->cols : a->rows) == d->rows &&
                              (gemm.b_transposed ? b->rows : b->cols) == d->cols &&
                              static_cast<long long>(gemm.b_transposed ? b->cols : b->rows) == gemm.k &&
                              c->rows == d->rows && c->cols == d->cols;
    const bool lds_fit = a->ld >= static_cast<int64_t>(a->rows) && b->ld >= static_cast<int64_t>(b->rows) &&
                         c->ld >= static_cast<int64_t>(c->rows) && d->ld >= static_cast<int64_t>(d->rows);
    const bool batches_agree = a->batch_count == d->batch_count && b->batch_count == d->batch_count &&
                               c->batch_count == d->batch_count && d->batch_count >= 1;
    if (!shapes_agree || !lds_fit || !batches_agree) return refused(CUBLAS_STATUS_INVALID_VALUE);
    for (const cublasLtMatrixLayout_t layout : {a, b, c, d}) {
        if (layout->order != CUBLASLT_ORDER_COL) {
            warn_not_on_the_backend(call, "cublasLtOrder_t " + std::to_string(layout->order));
            return refused(CUBLAS_STATUS_NOT_SUPPORTED);
        }
    }
    const std::optional<GemmMath> math =
        c->type == d->type ? gemm_math(static_cast<cublasComputeType_t>(desc->compute), a->type, b->type,
                                       d->type, dense::InputRounding::none)
                           : std::nullopt;
    if (!math || element_of(desc->scale_type) != math->scalar) {
        warn_where_only_a_gpu_computes(call, a->type, b->type, d->type);
        return refused(CUBLAS_STATUS_NOT_SUPPORTED);
    }
    const dense::Element d_element = *element_of(d->type);
    const std::optional<Epilogue> epilogue = epilogue_of(*desc, d_element);
    if (!epilogue) {
        warn_not_on_the_backend(call, "cublasLtEpilogue_t " + std::to_string(desc->epilogue));
        return refused(CUBLAS_STATUS_NOT_SUPPORTED);
    }
    if (desc->pointer_mode != CUBLASLT_POINTER_MODE_HOST &&
        desc->pointer_mode != CUBLASLT_POINTER_MODE_DEVICE) {
        warn_not_on_the_backend(call, "cublasLtPointerMode_t " + std::to_string(desc->pointer_mode));
        return refused(CUBLAS_STATUS_NOT_SUPPORTED);
    }
    gemm.a = {nullptr, *element_of(a->type), a->ld, a->batch_stride};
    gemm.b = {nullptr, *element_of(b->type), b->ld, b->batch_stride};
    gemm.c = {nullptr, d_element, c->ld, c->batch_stride};
    gemm.d = {nullptr, d_element, d->ld, d->batch_stride};
    gemm.batches = d->batch_count;
    gemm.rounding = math->rounding;
    gemm.accumulator = math->accumulator;
    gemm.epilogue = *epilogue;
    return {CUBLAS_STATUS_SUCCESS, gemm};
}

}  // namespace

cublasStatus_t cublasLtCreate(cublasLtHandle_t* lightHandle) {
    if (!lightHandle) return CUBLAS_STATUS_INVALID_VALUE;
    *lightHandle = handles.make();
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtDestroy(cublasLtHandle_t lightHandle) {
    return handles.destroy(lightHandle) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

size_t cublasLtGetVersion(void) { return CUBLAS_VERSION; }
const char* cublasLtGetStatusName(cublasStatus_t status) { return cublasGetStatusName(status); }
const char* cublasLtGetStatusString(cublasStatus_t status) { return cublasGetStatusString(status); }

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* matLayout, cudaDataType type, uint64_t rows,
                                          uint64_t cols, int64_t ld) {
    if (!matLayout) return CUBLAS_STATUS_INVALID_VALUE;
    *matLayout = new cublasLtMatrixLayoutOpaque_t{type, CUBLASLT_ORDER_COL, rows, cols, ld};
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t matLayout) {
    delete matLayout;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t matLayout,
                                                cublasLtMatrixLayoutAttribute_t attr, const void* buf,
                                                size_t sizeInBytes) {
    return with_field(matLayout, attr, [&](auto& field) { return set_field(field, buf, sizeInBytes); });
}

cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t matLayout,
                                                cublasLtMatrixLayoutAttribute_t attr, void* buf,
                                                size_t sizeInBytes, size_t* sizeWritten) {
    return with_field(matLayout, attr,
                      [&](auto& field) { return get_field(field, buf, sizeInBytes, sizeWritten); });
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* matmulDesc, cublasComputeType_t computeType,
                                        cudaDataType_t scaleType) {
    if (!matmulDesc) return CUBLAS_STATUS_INVALID_VALUE;
    *matmulDesc = new cublasLtMatmulDescOpaque_t{computeType, scaleType};
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t matmulDesc) {
    delete matmulDesc;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t matmulDesc,
                                              cublasLtMatmulDescAttributes_t attr, const void* buf,
                                              size_t sizeInBytes) {
    return with_field(matmulDesc, attr, [&](auto& field) { return set_field(field, buf, sizeInBytes); });
}

cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t matmulDesc,
                                              cublasLtMatmulDescAttributes_t attr, void* buf,
                                              size_t sizeInBytes, size_t* sizeWritten) {
    return with_field(matmulDesc, attr,
                      [&](auto& field) { return get_field(field, buf, sizeInBytes, sizeWritten); });
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* pref) {
    if (!pref) return CUBLAS_STATUS_INVALID_VALUE;
    *pref = new cublasLtMatmulPreferenceOpaque_t;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref) {
    delete pref;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr,
                                                    const void* buf, size_t sizeInBytes) {
    if (!pref) return CUBLAS_STATUS_INVALID_VALUE;
    switch (attr) {
        case CUBLASLT_MATMUL_PREF_SEARCH_MODE: return set_field(pref->search_mode, buf, sizeInBytes);
        case CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES:
            return set_field(pref->max_workspace_bytes, buf, sizeInBytes);
        case CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK:
            return set_field(pref->reduction_scheme_mask, buf, sizeInBytes);
        case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES:
        case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES:
        case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES:
        case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES:
            return set_field(pref->min_alignment[attr - CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES], buf,
                             sizeInBytes);
    }
    return CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t lightHandle,
                                              cublasLtMatmulDesc_t operationDesc,
                                              cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                              cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                              cublasLtMatmulPreference_t preference, int requestedAlgoCount,
                                              cublasLtMatmulHeuristicResult_t heuristicResultsArray[],
                                              int* returnAlgoCount) {
    if (!is_live(lightHandle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!preference || requestedAlgoCount < 1 || !heuristicResultsArray || !returnAlgoCount)
        return CUBLAS_STATUS_INVALID_VALUE;
    *returnAlgoCount = 0;
    const Planned planned = plan(WARPDRILL_HOST_CALL("cublasLtMatmulAlgoGetHeuristic"), operationDesc, Adesc,
                                 Bdesc, Cdesc, Ddesc);
    if (planned.status != CUBLAS_STATUS_SUCCESS) return planned.status;
    heuristicResultsArray[0] = {};
    heuristicResultsArray[0].state = CUBLAS_STATUS_SUCCESS;
    heuristicResultsArray[0].wavesCount = 1.0f;
    *returnAlgoCount = 1;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc,
                              const void* alpha, const void* A, cublasLtMatrixLayout_t Adesc, const void* B,
                              cublasLtMatrixLayout_t Bdesc, const void* beta, const void* C,
                              cublasLtMatrixLayout_t Cdesc, void* D, cublasLtMatrixLayout_t Ddesc,
                              const cublasLtMatmulAlgo_t*, void*, size_t, cudaStream_t stream) {
    const HostCall call = WARPDRILL_HOST_CALL("cublasLtMatmul");
    if (!is_live(lightHandle)) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!alpha || !beta) return CUBLAS_STATUS_INVALID_VALUE;
    Planned planned = plan(call, computeDesc, Adesc, Bdesc, Cdesc, Ddesc);
    if (planned.status != CUBLAS_STATUS_SUCCESS) return planned.status;
    Gemm& gemm = planned.gemm;
    const bool bias_needed = adds_bias(computeDesc->epilogue);
    // cuBLASLt refuses a bias pointer that the epilogue would not use (an H200's).
    if (bias_needed != (computeDesc->bias != nullptr) ||
        (writes_aux(computeDesc->epilogue) && (!computeDesc->aux || computeDesc->aux_ld < gemm.m)))
        return CUBLAS_STATUS_INVALID_VALUE;
    const bool on_device = computeDesc->pointer_mode == CUBLASLT_POINTER_MODE_DEVICE;
    const dense::Element scalar = *element_of(computeDesc->scale_type);
    gemm.alpha = scalar_argument(alpha, scalar, on_device);
    gemm.beta = scalar_argument(beta, scalar, on_device);
    gemm.a.data = A, gemm.b.data = B, gemm.c.data = C, gemm.d.data = D;
    return queue_gemm(call, stream, gemm);
}
