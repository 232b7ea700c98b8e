// SPDX-License-Identifier: MIT
// The model-description DSL: every layer facade, composite blocks and network composition. No Eigen, cheap.
#pragma once

#include <prenet/layers/activation.hpp>
#include <prenet/layers/batchnorm2d.hpp>
#include <prenet/layers/conv2d.hpp>
#include <prenet/layers/conv_transpose2d.hpp>
#include <prenet/layers/dense.hpp>
#include <prenet/layers/dropout.hpp>
#include <prenet/layers/embedding.hpp>
#include <prenet/layers/flatten.hpp>
#include <prenet/layers/gated_mlp.hpp>
#include <prenet/layers/groupnorm.hpp>
#include <prenet/layers/input.hpp>
#include <prenet/layers/layernorm.hpp>
#include <prenet/layers/multihead_attention.hpp>
#include <prenet/layers/patch_embedding.hpp>
#include <prenet/layers/pooling.hpp>
#include <prenet/layers/recurrent.hpp>
#include <prenet/layers/repeat.hpp>
#include <prenet/layers/residual.hpp>
#include <prenet/layers/rmsnorm.hpp>
#include <prenet/layers/select_token.hpp>
#include <prenet/layers/sequential.hpp>
#include <prenet/layers/transformer.hpp>
#include <prenet/layers/upsample.hpp>
#include <prenet/network.hpp>
#include <prenet/runtime_network.hpp>
#include <prenet/units.hpp>
