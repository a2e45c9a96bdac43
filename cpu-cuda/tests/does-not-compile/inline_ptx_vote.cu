// Inline PTX that the CPU backend has no translation for: a ballot through a
// predicate register of the asm's own. nvcc compiles it; the CPU backend
// must refuse it at compile time, naming the PTX, never run something else.

__global__ void ballot_of_odd_lanes(unsigned* out) {
    unsigned ballot;
    asm volatile(
        "{\n\t.reg .pred odd;\n\tsetp.ne.u32 odd, %1, 0;\n\tvote.sync.ballot.b32 %0, odd, 0xffffffff;\n\t}"
        : "=r"(ballot)
        : "r"(threadIdx.x & 1));
    out[threadIdx.x] = ballot;
}
