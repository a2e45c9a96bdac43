// <thrust/memory.h> on the CPU backend (device_vector.h lists the Thrust
// subset): thrust::raw_pointer_cast and thrust::device_ptr.
#pragma once

#include "thrust/device_ptr.h"
