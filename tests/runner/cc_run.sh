#!/usr/bin/env bash
# `warpdrill cc` and `warpdrill run` on CUDA programs written for nvcc
# (cpu-cuda/tests/programs/): one builds and gives the reference's sum (its
# own kernel's and cub::DeviceReduce's), one
# with a missing barrier is stopped with the race named at its line, one that
# misuses the runtime API is told of each misuse, -G keeps the kernels' debug
# information, __CUDA_ARCH__ follows -arch in a folder with a space (and, as
# CMake's compiler launcher, cudacc writes a depfile there that names only
# files that exist), the device's properties and attributes, copies of each
# kind and managed memory's hints answer as an H200's but where the backend
# differs on purpose, an nvcc option the CPU backend does not know is
# named, and so is a header of CUDA's toolkit that the backend lacks.
set -euo pipefail
warpdrill=$1
root=$2
cudacc=$3
programs=$root/cpu-cuda/tests/programs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAILED: $*" >&2; exit 1; }

"$warpdrill" --root "$root" cc -O2 -arch=sm_90 -lineinfo "$programs/ticket_sum.cu" -o ticket_sum
./ticket_sum 777 > cc.txt || fail "the program built by warpdrill cc: $(cat cc.txt)"
grep -qE "^sum (-?[0-9.]+) reference \1$" cc.txt || fail "warpdrill cc's program printed: $(cat cc.txt)"
grep -qE "^cub sum (-?[0-9.]+) reference \1$" cc.txt || fail "CUB's sum in warpdrill cc's program: $(cat cc.txt)"

"$warpdrill" --root "$root" run "$programs/ticket_sum.cu" -- 999 > run.txt 2>&1 || fail "warpdrill run: $(cat run.txt)"
grep -q "^sum " run.txt || fail "warpdrill run printed: $(cat run.txt)"

status=0
"$warpdrill" --root "$root" run "$programs/missing_barrier.cu" > race.txt 2>&1 || status=$?
[[ $status == 1 ]] || fail "a racing program: exit $status, not 1: $(cat race.txt)"
grep -q "broke a rule of CUDA's" race.txt || fail "no fault message: $(cat race.txt)"
grep -q "race on" race.txt || fail "the race is not named: $(cat race.txt)"
grep -q 'missing_barrier.cu:[0-9]*: `if (threadIdx.x < stride)' race.txt || fail "the race's line is not named: $(cat race.txt)"

# Misused runtime calls whose errors the program ignores, and a buffer never
# freed: each named at its line, as compute-sanitizer names them.
"$warpdrill" --root "$root" run "$programs/careless_host.cu" > host.txt 2>&1 || fail "warpdrill run: $(cat host.txt)"
grep -q "^finished$" host.txt || fail "the careless program did not finish: $(cat host.txt)"
grep -q "cudaMemcpy at .*careless_host.cu:19 returned cudaErrorInvalidValue: the destination: its 2048 bytes" host.txt ||
  fail "the copy past the buffer is not named: $(cat host.txt)"
grep -q "cudaFree at .*careless_host.cu:24 returned cudaErrorInvalidValue: that buffer was freed before (a double free)" host.txt ||
  fail "the double free is not named: $(cat host.txt)"
grep -q "1 buffer (1024 bytes) never freed" host.txt || fail "the leak is not listed: $(cat host.txt)"
grep -q "1024 bytes, allocated by cudaMalloc at .*careless_host.cu:18" host.txt || fail "the leak's line is not named: $(cat host.txt)"

# Kernels keep line tables only, as nvcc's -lineinfo; -G, nvcc's device
# debugging, keeps their locals too (a parameter is one).
debug_parameters() { readelf --debug-dump=info "$1" 2> /dev/null | grep -c DW_TAG_formal_parameter || true; }
"$warpdrill" --root "$root" cc -c "$programs/ticket_sum.cu" -o lines.o
"$warpdrill" --root "$root" cc -c -G "$programs/ticket_sum.cu" -o debug.o
[[ $(debug_parameters lines.o) == 0 ]] || fail "a kernel built without -G carries its locals' debug information"
[[ $(debug_parameters debug.o) -gt 0 ]] || fail "a kernel built with -G carries no debug information for its locals"

# A program in a folder whose name has a space, which asks __CUDA_ARCH__ which
# GPU it is built for: the answer follows -arch.
mkdir "a folder"
cat > "a folder/which_gpu.cu" << 'EOF'
#include <cstdio>
__global__ void which_gpu(int* arch) {
#if __CUDA_ARCH__ >= 900
    *arch = 900;
#else
    *arch = 800;
#endif
}
int main() {
    int* arch;
    int answer = 0;
    cudaMalloc(&arch, sizeof(int));
    which_gpu<<<1, 1>>>(arch);
    cudaMemcpy(&answer, arch, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("built for %d\n", answer);
    cudaFree(arch);
}
EOF
for arch in 80 90; do
  "$warpdrill" --root "$root" cc -arch=sm_$arch "a folder/which_gpu.cu" -o "a folder/which_gpu"
  [[ $("a folder/which_gpu") == "built for ${arch}0" ]] ||
    fail "__CUDA_ARCH__ in a folder with a space, -arch=sm_$arch: $("a folder/which_gpu")"
done

# The same file through cudacc as CMake's compiler launcher, with absolute
# paths that have a space: the depfile it leaves must name only files that
# exist (not the copies cudacc answers __CUDA_ARCH__ with, which it deletes),
# or ninja would compile the file again at every build.
object="$work/a folder/which_gpu.o"
"$cudacc" --launcher g++ -x c++ -std=c++20 -I"$root/cpu-cuda/include" -MD -MT "$object" -MF "$object.d" \
  -c "$work/a folder/which_gpu.cu" -o "$object"
dependencies=$(sed -e 's/\\$//' -e 's/^[^:]*: //' "$object.d" | sed -e 's/\\ /\x01/g' | tr -s ' ' '\n' | tr '\001' ' ')
while IFS= read -r dependency; do
  [[ -z $dependency || -e $dependency ]] || fail "cudacc's depfile names $dependency, which does not exist"
done <<< "$dependencies"
grep -q "which_gpu.cu" <<< "$dependencies" || fail "cudacc's depfile does not name its source: $(cat "$object.d")"

# answers_as_gpu PROBE RESULTS EXCEPT WHAT: builds cpu-cuda/tests/gpu/PROBE.cu
# with warpdrill cc, runs it, and holds its output to results/RESULTS (past
# its three lines of device, nvcc and date), but for the lines EXCEPT matches.
answers_as_gpu() {
  local probe=$1 results=$2 except=$3 what=$4
  "$warpdrill" --root "$root" cc "$root/cpu-cuda/tests/gpu/$probe.cu" -o "$probe"
  "./$probe" > "$probe.txt" 2> "$probe.stderr"
  diff <(tail -n +4 "$root/results/$results" | grep -Ev "$except") <(grep -Ev "$except" "$probe.txt") ||
    fail "$what answer otherwise than an H200's (above: <, the H200's)"
}

# Every device property and attribute a GPU reports, as an H200 reported
# them, but the lines that differ on purpose: the H100 the backend imitates
# (its memory, L2 and clocks), this machine's multiprocessors, no PCI device,
# and the attributes CUDA 13 keeps reserved (no name to ask them by).
differ='^(name|totalGlobalMem|multiProcessorCount|pciDeviceID|memoryBusWidth|l2CacheSize|persistingL2CacheMaxSize'
differ+='|gpuPci(Device|Subsystem)ID|attribute (16|34|36|37|38|108|139|140)'
differ+='|attribute (44|92|93|94|96|102|103|104|105|107|110|122|123|124|127|128|129|132|136|137|141|145|146)) '
answers_as_gpu properties_probe properties-probe-h200.txt "$differ" "the device's properties and attributes"

# Every cudaMemcpyKind against every pair of memories, copies to and from a
# variable, and cudaMemset: refused, or made, as on an H200 (the first line
# names the device).
answers_as_gpu memcpy_probe memcpy-probe-h200.txt ', driver API ' "copies and memsets"

# Pitched memory: cudaMallocPitch's pitch, and what cudaMemcpy2D and
# cudaMemset2D take, refuse and write, as on an H200 (the first line names
# the device).
answers_as_gpu pitched_probe pitched-probe-h200.txt ': texturePitchAlignment ' "pitched copies and memsets"

# min and max of floats, in inline PTX and through CUDA's min() and max(): of
# two zeros, of a NaN and a number, and of two NaNs, the bits an H200 gave
# (all lines).
answers_as_gpu float_min_max_probe float-min-max-probe-h200.txt '^$' "min and max of floats"

# Managed memory's hints and prefetches refuse what an H200 refused, with its
# error codes, but where the H200's driver crashed the program (attach flags
# 0): the backend refuses the call.
crash='the process died of signal 11|cudaStreamAttachMemAsync +managed +flags 0,'
answers_as_gpu managed_hints_probe managed-hints-probe-h200.txt "$crash" "managed memory's hints"

# Registered memory, the device's flags and limits, stream priorities, host
# functions, malloc() in kernels and __grid_constant__, as on an H200, but
# the lines that differ on purpose: the imitated H100's persisting L2, the
# heap's capacity (a GPU's allocator keeps some of it), and the program that
# the backend stops where a GPU answers cudaErrorNotPermitted (a host function
# that calls the runtime: it runs on the backend's thread, which may stop the
# program before the line that queued it is printed) or cudaErrorAssert (a
# failed assert in a kernel). Those two stops say why.
differ='PersistingL2CacheSize|got memory|fills a heap|cudaStreamSynchronize|calls cudaMalloc|cudaMalloc in it'
differ+='|Assertion `|fail assert|cudaErrorAssert|cudaGetLastError again'
answers_as_gpu host_runtime_probe host-runtime-probe-h200.txt "$differ" "the runtime's calls around kernels"
grep -q "the host function call_the_runtime, queued on a stream with cudaLaunchHostFunc" host_runtime_probe.stderr ||
  fail "a host function that calls the runtime is not named: $(cat host_runtime_probe.stderr)"
grep -q 'thread: \[28,0,0\] Assertion `i < n` failed." for each thread' host_runtime_probe.stderr ||
  fail "a failed assert in a kernel is not named: $(cat host_runtime_probe.stderr)"

# cuda::barrier, case by case: where an H200 answered, the backend answers
# the same line; where the H200 hung, or compute-sanitizer reported, the
# backend stops the program and says so in synccheck's or racecheck's words.
# But for "completion": racecheck reports the completion function's write
# against the waiters' reads, which the C++ standard orders (the completion
# step happens before any waiter returns); the backend reports nothing there.
"$warpdrill" --root "$root" cc "$root/cpu-cuda/tests/gpu/barrier_probe.cu" -o barrier_probe
declare -A stops=([read_before_wait]="race on staged[" [old_token]="Missing wait" [over_arrival]="Missing wait"
                  [uninitialized]="Missing init" [exit_without_arriving]="deadlock: threads 0-4, 6-63 wait"
                  [arrive_past_count]="Barrier overflow")
for case in $(sed -n 's/^== //p' "$root/results/barrier-probe-h200.txt"); do
  if [[ -n ${stops[$case]:-} ]]; then
    if ./barrier_probe "$case" > barrier.txt 2>&1; then fail "cuda::barrier, $case: not stopped: $(cat barrier.txt)"; fi
    grep -qF "${stops[$case]}" barrier.txt || fail "cuda::barrier, $case: $(cat barrier.txt)"
  else
    ./barrier_probe "$case" > barrier.txt 2>&1 || fail "cuda::barrier, $case: $(cat barrier.txt)"
    grep -qxF "$(cat barrier.txt)" "$root/results/barrier-probe-h200.txt" ||
      fail "cuda::barrier, $case answers otherwise than an H200: $(cat barrier.txt)"
  fi
done

status=0
"$warpdrill" --root "$root" cc --no-such-option "$programs/ticket_sum.cu" > option.txt 2>&1 || status=$?
[[ $status != 0 ]] || fail "an unknown nvcc option was accepted"
grep -q "does not know the nvcc option --no-such-option" option.txt || fail "$(cat option.txt)"

# A header of CUDA's toolkit that the backend has no copy of: the compiler's
# "No such file", then a line saying that the CPU backend lacks it; a
# program's own missing header gets the compiler's words alone.
printf '#include <curand_kernel.h>\nint main() {}\n' > uses_curand.cu
status=0
"$warpdrill" --root "$root" cc uses_curand.cu -o uses_curand > curand.txt 2>&1 || status=$?
[[ $status != 0 ]] || fail "a program that includes <curand_kernel.h> was built"
grep -q "curand_kernel.h: No such file or directory" curand.txt || fail "$(cat curand.txt)"
grep -q "the CPU backend has no <curand_kernel.h>, which nvcc finds in NVIDIA's CUDA toolkit" curand.txt ||
  fail "the missing toolkit header is not named: $(cat curand.txt)"
# cuBLAS, linked as NVIDIA's makefiles link it (-lcublas -lcublasLt): the
# backend carries that part of the library, so the flags link nothing more.
cat > uses_cublas.cu << 'EOF'
#include <cstdio>
#include <cublasLt.h>
#include <cublas_v2.h>
int main() {
    const float host[4] = {1, 2, 3, 4};
    float *x, dot = 0;
    cudaMalloc(&x, sizeof host);
    cudaMemcpy(x, host, sizeof host, cudaMemcpyHostToDevice);
    cublasHandle_t handle;
    cublasLtHandle_t lt;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS || cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS) return 1;
    cublasSdot(handle, 4, x, 1, x, 1, &dot);
    std::printf("dot %g\n", dot);
    cublasLtDestroy(lt);
    cublasDestroy(handle);
    cudaFree(x);
}
EOF
"$warpdrill" --root "$root" cc uses_cublas.cu -lcublas -lcublasLt -o uses_cublas > cublas.txt 2>&1 ||
  fail "a program of cuBLAS's with -lcublas -lcublasLt: $(cat cublas.txt)"
./uses_cublas > cublas.txt 2>&1 || fail "the cuBLAS program: $(cat cublas.txt)"
grep -qx "dot 30" cublas.txt || fail "cublasSdot of (1, 2, 3, 4) with itself: $(cat cublas.txt)"
printf '#include "own_header.h"\nint main() {}\n' > uses_own.cu
"$warpdrill" --root "$root" cc uses_own.cu -o uses_own > own.txt 2>&1 && fail "a program without its own header was built"
if grep -q "the CPU backend has no" own.txt; then fail "a program's own header is called CUDA's: $(cat own.txt)"; fi
echo "warpdrill cc and run: all passed"
