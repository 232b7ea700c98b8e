// SPDX-License-Identifier: MIT
// GPT-3 XL and GPT-3 2.7B as NeuSight describes them (GPT2LMHeadModel configs gpt3_xl.json and gpt3_27.json):
// GPT-2's architecture (models/gpt2.hpp) over a 2048-token context.
#pragma once

#include <cstdint>

#include <prenet/dsl.hpp>
#include <prenet/models/gpt2.hpp>

namespace prenet::models {

/// gpt3-xl as NeuSight's gpt3_xl.json sizes it: n_embd 3072, 24 layers, 24 heads (head dim 128), 2048 positions;
/// 2,879,554,560 parameters (tied head counted once). The GPT-3 paper's XL has d_model 2048 (1.3B parameters):
/// NeuSight's config, which its measurements use, is followed here.
inline constexpr auto gpt3_xl = Tokens<2048>{} | detail::gpt2<3072, 24, 24, 2048>{};

/// gpt3-2.7b (NeuSight's gpt3_27.json, the GPT-3 paper's 2.7B): n_embd 2560, 32 layers, 32 heads, 2048 positions;
/// 2,651,553,280 parameters (tied head counted once).
inline constexpr auto gpt3_2_7b = Tokens<2048>{} | detail::gpt2<2560, 32, 32, 2048>{};

}  // namespace prenet::models
