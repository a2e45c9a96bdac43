#include "cublas_shared.h"

#include <cmath>
#include <string>
#include <vector>

#include "faults.h"
#include "program.h"
#include "streams.h"
#include "warnings.h"
#include "warpdrill/messages.h"

namespace warpdrill::cpu::detail {

using dense::Element;

Scalar scalar_argument(const void* pointer, Element element, bool on_device) {
    return {pointer, element, on_device, on_device || !pointer ? 0.0 : dense::load(pointer, element, 0)};
}

double value_of(const HostCall& call, const char* name, const Scalar& scalar) {
    if (!scalar.on_device) return scalar.host_value;
    check_library_read(call, {name, scalar.pointer, dense::bytes_of(scalar.element)});
    return dense::load(scalar.pointer, scalar.element, 0);
}

cublasStatus_t queue_on(cudaStream_t stream, std::function<void()> operation, bool wait) {
    refuse_inside_host_function();
    if (check_stream(stream) != cudaSuccess) return CUBLAS_STATUS_EXECUTION_FAILED;
    const WorkSerial serial = enqueue(stream, WorkKind::kernel, std::move(operation));
    if (wait) finish(serial);
    return CUBLAS_STATUS_SUCCESS;
}

std::optional<Element> element_of(cudaDataType type) {
    switch (type) {
        case CUDA_R_16F: return Element::f16;
        case CUDA_R_16BF: return Element::bf16;
        case CUDA_R_32F: return Element::f32;
        case CUDA_R_64F: return Element::f64;
        default: return std::nullopt;
    }
}

std::optional<GemmMath> gemm_math(cublasComputeType_t compute, cudaDataType a_type, cudaDataType b_type,
                                  cudaDataType c_type, dense::InputRounding float_rounding) {
    using dense::Accumulator;
    using dense::InputRounding;
    const std::optional<Element> a = element_of(a_type), b = element_of(b_type), c = element_of(c_type);
    if (!a || !b || !c) return std::nullopt;
    const bool all_float = a == Element::f32 && b == Element::f32 && c == Element::f32;
    switch (compute) {
        case CUBLAS_COMPUTE_16F:
        case CUBLAS_COMPUTE_16F_PEDANTIC:
            if (a != Element::f16 || b != Element::f16 || c != Element::f16) return std::nullopt;
            return GemmMath{Element::f16, InputRounding::none, Accumulator::f16};
        case CUBLAS_COMPUTE_32F:
        case CUBLAS_COMPUTE_32F_PEDANTIC: {
            const bool half_inputs =
                (a == Element::f16 || a == Element::bf16) && b == a && (c == a || c == Element::f32);
            if (!all_float && !half_inputs) return std::nullopt;
            const bool may_round = compute == CUBLAS_COMPUTE_32F && all_float;
            const InputRounding rounding = may_round ? float_rounding : InputRounding::none;
            return GemmMath{Element::f32, rounding, Accumulator::f32};
        }
        case CUBLAS_COMPUTE_32F_FAST_16F:
        case CUBLAS_COMPUTE_32F_FAST_16BF:
        case CUBLAS_COMPUTE_32F_FAST_TF32: {
            if (!all_float) return std::nullopt;
            const InputRounding rounding = compute == CUBLAS_COMPUTE_32F_FAST_16F    ? InputRounding::f16
                                           : compute == CUBLAS_COMPUTE_32F_FAST_16BF ? InputRounding::bf16
                                                                                     : InputRounding::tf32;
            return GemmMath{Element::f32, rounding, Accumulator::f32};
        }
        case CUBLAS_COMPUTE_64F:
        case CUBLAS_COMPUTE_64F_PEDANTIC:
            if (a != Element::f64 || b != Element::f64 || c != Element::f64) return std::nullopt;
            return GemmMath{Element::f64, InputRounding::none, Accumulator::f64};
        default: return std::nullopt;
    }
}

void warn_where_only_a_gpu_computes(const HostCall& call, cudaDataType a, cudaDataType b, cudaDataType c) {
    auto only_on_a_gpu = [](cudaDataType type) {
        return type == CUDA_R_8I || type == CUDA_R_32I || type == CUDA_C_8I || type == CUDA_C_16F ||
               type == CUDA_C_16BF || type == CUDA_C_32F || type == CUDA_C_64F;
    };
    if (only_on_a_gpu(a) || only_on_a_gpu(b) || only_on_a_gpu(c)) {
        warn_not_on_the_backend(
            call, "cudaDataType " + std::to_string(a) + ", " + std::to_string(b) + ", " + std::to_string(c));
    }
}

void warn_not_on_the_backend(const HostCall& call, const std::string& what) {
    warn("not on the backend " + std::to_string(call.code), [&] {
        return messages::text(
            "backend.library.not_supported",
            {{"call", call.name}, {"where", to_string(source_places({call.code})[0])}, {"what", what}});
    });
}

namespace {

// GELU as cuBLASLt's epilogue computes it: the tanh form.
double gelu(double x) {
    constexpr double kSqrtTwoOverPi = 0.7978845608028654;
    return 0.5 * x * (1 + std::tanh(kSqrtTwoOverPi * (x + 0.044715 * x * x * x)));
}

StridedElements matrix_of_batch(const char* name, const MatrixArg& arg, long long rows, long long columns,
                                long long batch, long long batches) {
    const std::size_t bytes = dense::bytes_of(arg.element);
    const auto* data =
        static_cast<const std::byte*>(arg.data) + batch * arg.stride * static_cast<long long>(bytes);
    return {name, data, bytes, rows, columns, arg.ld, true, batches > 1 ? static_cast<int>(batch) : -1};
}

StridedElements vector_of_batch(const char* name, const MatrixArg& arg, long long n, long long batch,
                                long long batches) {
    StridedElements vector = matrix_of_batch(name, arg, 1, n, batch, batches);
    vector.stride = 1;
    vector.is_matrix = false;
    return vector;
}

// What one matrix of the batch reads and writes.
struct BatchOperands {
    StridedElements a, b, c, d, bias, aux;
};

BatchOperands operands_of(const Gemm& gemm, long long k, long long batch) {
    const Epilogue& epilogue = gemm.epilogue;
    return {
        matrix_of_batch("A", gemm.a, gemm.a_transposed ? k : gemm.m, gemm.a_transposed ? gemm.m : k, batch,
                        gemm.batches),
        matrix_of_batch("B", gemm.b, gemm.b_transposed ? gemm.n : k, gemm.b_transposed ? k : gemm.n, batch,
                        gemm.batches),
        matrix_of_batch("C", gemm.c, gemm.m, gemm.n, batch, gemm.batches),
        matrix_of_batch("D", gemm.d, gemm.m, gemm.n, batch, gemm.batches),
        vector_of_batch("bias", epilogue.bias, epilogue.bias.data ? gemm.m : 0, batch, gemm.batches),
        matrix_of_batch("aux", epilogue.aux, gemm.m, epilogue.aux.data ? gemm.n : 0, batch, gemm.batches),
    };
}

void check_operands(const HostCall& call, const BatchOperands& operands, double beta) {
    check_library_read(call, operands.a);
    check_library_read(call, operands.b);
    if (beta != 0) {
        StridedElements c = operands.c;
        c.read_reason = "backend.library.beta_reads_c";
        check_library_read(call, c);
    }
    check_library_write(call, operands.d);
    check_library_read(call, operands.bias);
    check_library_write(call, operands.aux);
}

// The epilogue's bias, aux and activation, or none where it has none.
dense::Finish finish_of(const Epilogue& epilogue, const BatchOperands& operands) {
    const bool adds_bias = operands.bias.data != nullptr;
    if (!adds_bias && !operands.aux.data && epilogue.activation == Epilogue::Activation::none) return {};
    return [=](std::int64_t row, std::int64_t column, double value) {
        if (adds_bias) value += dense::load(operands.bias.data, epilogue.bias.element, row);
        if (operands.aux.data) {
            dense::store(const_cast<void*>(operands.aux.data), epilogue.aux.element,
                         row + column * epilogue.aux.ld, value);
        }
        switch (epilogue.activation) {
            case Epilogue::Activation::none: return value;
            case Epilogue::Activation::relu: return value > 0 ? value : 0.0;
            case Epilogue::Activation::gelu: return gelu(value);
        }
        return value;
    };
}

void compute(const Gemm& gemm, long long k, double alpha, double beta, const BatchOperands& operands) {
    dense::gemm(gemm.m, gemm.n, k, alpha, {operands.a.data, gemm.a.element, gemm.a.ld, gemm.a_transposed},
                {operands.b.data, gemm.b.element, gemm.b.ld, gemm.b_transposed}, beta,
                {operands.c.data, gemm.c.element, gemm.c.ld, false},
                {const_cast<void*>(operands.d.data), gemm.d.element, gemm.d.ld}, gemm.rounding,
                gemm.accumulator, finish_of(gemm.epilogue, operands));
}

void run_gemm(const HostCall& call, const Gemm& gemm) {
    const double alpha = value_of(call, "alpha", gemm.alpha), beta = value_of(call, "beta", gemm.beta);
    const long long k = alpha == 0 ? 0 : gemm.k;
    std::vector<BatchOperands> batches;
    for (long long batch = 0; batch < gemm.batches; ++batch) {
        batches.push_back(operands_of(gemm, k, batch));
        check_operands(call, batches.back(), beta);
    }
    for (const BatchOperands& operands : batches) {
        compute(gemm, k, alpha, beta, operands);
        note_library_write(call, operands.d);
        note_library_write(call, operands.aux);
    }
}

}  // namespace

cublasStatus_t queue_gemm(const HostCall& call, cudaStream_t stream, const Gemm& gemm) {
    if (gemm.m == 0 || gemm.n == 0 || gemm.batches == 0) return CUBLAS_STATUS_SUCCESS;
    return queue_on(stream, [=] { run_gemm(call, gemm); });
}

}  // namespace warpdrill::cpu::detail
