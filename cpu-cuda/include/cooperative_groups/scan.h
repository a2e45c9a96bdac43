// <cooperative_groups/scan.h> on the CPU backend.
#pragma once

#include "warpdrill/cpu/cooperative_groups_scan.h"
