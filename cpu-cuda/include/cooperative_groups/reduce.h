// <cooperative_groups/reduce.h> on the CPU backend.
#pragma once

#include "warpdrill/cpu/cooperative_groups_reduce.h"
