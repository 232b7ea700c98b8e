// SPDX-License-Identifier: MIT
// Umbrella header: the DSL, per-layer features and the training-memory estimate.
#pragma once

#include <prenet/dsl.hpp>
#include <prenet/features.hpp>
#include <prenet/memory.hpp>
