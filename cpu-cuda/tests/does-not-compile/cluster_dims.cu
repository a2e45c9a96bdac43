// A cluster shape fixed at compile time: the CPU backend cannot attach it to
// a launch, and says to give it at launch time instead.
#include "warpdrill/cuda.h"

__global__ void __cluster_dims__(2, 1, 1) clustered(int* out) { out[threadIdx.x] = 1; }
