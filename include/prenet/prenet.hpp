// SPDX-License-Identifier: MIT
// Umbrella header: the DSL, per-layer features, the training-memory estimate, the device catalogue and the
// embedded time predictors.
#pragma once

#include <prenet/attention.hpp>
#include <prenet/budget.hpp>
#include <prenet/devices.hpp>
#include <prenet/dsl.hpp>
#include <prenet/features.hpp>
#include <prenet/fits.hpp>
#include <prenet/memory.hpp>
#include <prenet/predict.hpp>
#include <prenet/predictors/network_time.hpp>
