// <cooperative_groups.h> on the CPU backend (warpdrill/cpu/cooperative_groups.h).
#pragma once

#include "warpdrill/cpu/cooperative_groups.h"
