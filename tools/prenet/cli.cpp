// SPDX-License-Identifier: MIT
// prenet::cli::run_cli: dispatches the subcommand, prints usage, turns every failure into one line and an exit code.
#include "cli.hpp"

#include <algorithm>
#include <array>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "arguments.hpp"
#include "commands.hpp"
#include "prices.hpp"

namespace prenet::cli {

namespace {

constexpr std::string_view usage = R"(usage: prenet <command> [options]

commands:
  predict --model NAME|--onnx FILE [--dim NAME=N[,...]] --device ID|--device-file FILE [--batch N]
          [--seq N | --image N] [--optimizer none|sgd|momentum|adam|adamw|rmsprop|adagrad|adam-fused|adamw-fused]
          [--mode train|inference] [--samples N] [--precision P [--keep-batchnorm-fp32]] [--attention A]
          [training setup] [--max-batch] [--layers] [--json]
      iteration time (forward, backward, optimizer), epoch time, FLOPs, memory; --layers adds the per-layer table
  compare --model NAME|--onnx FILE [--dim NAME=N[,...]] [--batch N[,N...]] [--devices ID[,ID...]]
          [--device-file FILE ...] [--price ID=USD[,...]] [--prices FILE] [--samples N] [--epochs N]
          [--sort time|cost] [--all | --fits-only] [--top K] [--seq N | --image N] [--optimizer ...] [--mode ...]
          [--precision P[,P...] [--keep-batchnorm-fp32]] [--attention A] [training setup] [--max-batch] [--json]
          [--svg FILE]
      one table across devices (default: every GPU in the catalogue; --devices a100*,h100 takes id prefixes) for a
      job of --epochs passes over --samples:
      hours and dollars, cheapest first when prices are known, only what fits unless --all; ends with the cheapest
      and the fastest configuration that fits; each --device-file (may be repeated) adds that GPU; several
      precisions compare each device under each (a device PyTorch refuses one on is named, "left out"); --svg FILE
      also draws the listed rows as a bar chart (time per iteration, or of the job with --epochs/--samples, and cost)
  memory --model NAME|--onnx FILE [--dim NAME=N[,...]] --device ID|--device-file FILE [--batch N] [--max-batch]
          [--seq N | --image N] [--optimizer ...] [--mode ...] [--precision P [--keep-batchnorm-fp32]] [--attention A]
          [training setup] [--json]
      peak device memory as nvidia-smi shows it, by part; whether it fits, by how much not, the largest batch
  devices [--json | --markdown] [--device ID | --device-file FILE]
      the device catalogue (ids for --device): data-sheet peaks (dense tensor TFLOPS), bandwidth, memory, power;
      --device ID --json prints one entry, which is a valid --device-file (docs/devices.md: a GPU from its data sheet)
  models [--json]     the model zoo (names for --model)
  prices [--json | --markdown]
      compare's built-in prices: on-demand USD per GPU-hour, one basis, with source and date; the GPUs without one

precision P, as PyTorch runs it (docs/precision.md):
  default   stock PyTorch >= 1.12: TF32 tensor cores for cuDNN convolutions on Ampere and newer, FP32 matmuls
  fp32      IEEE FP32 everywhere (TF32 off)
  tf32      TF32 for matmuls and convolutions (allow_tf32 = True, as NGC containers set it)
  amp-fp16  torch.autocast(float16) + GradScaler: fp32 master weights, gradients and optimizer state
  amp-bf16  torch.autocast(bfloat16): as amp-fp16 without GradScaler
  fp16      model.half(): every tensor and the optimizer state in fp16      bf16  model.bfloat16(), likewise
  A device without the tensor cores asked for runs what PyTorch runs there (FP32 math), and the output says so;
  amp-bf16 on a GPU without BF16 is refused (exit 2; compare leaves such GPUs out). --dtype fp32|fp16|bf16 is the
  older name of --precision fp32|fp16|bf16.
  --keep-batchnorm-fp32 (fp16, bf16): batch norm keeps fp32 weights, as apex's network_to_half and amp O2 leave it;
  PyTorch then runs it on cuDNN with fp16 activations (half weights, or bf16 ones, get its own two-pass kernels);
  with compare's list it applies to the list's fp16 and bf16 (fp16 with it against amp-fp16 is one table)

attention A, how every attention layer's core runs (docs/attention.md):
  eager               matmul, softmax, dropout, matmul: the S x S probabilities saved for backward (HF "eager")
  sdpa-flash          scaled_dot_product_attention's flash kernel: one fused kernel a pass, no S x S tensors; on a
                      GPU before sm80 (no BF16 tensor cores) or on fp32 tensors it runs sdpa-mem-efficient instead
  sdpa-mem-efficient  the memory-efficient fused kernel; fused kernels run at a share of the GPU's GEMM rate, flash
                      and this one at most at sm80's tensor rate a clock (on Hopper about half the GEMMs' peak)
  sdpa-cudnn          cuDNN's fused kernel (recent PyTorch with cuDNN newer than 9.15 prefers it on sm90/sm100): the
                      device's own tensor instructions; before sm80 or on fp32 it runs sdpa-mem-efficient instead
  default: the model's own (`prenet models`): sdpa-flash for the LLaMA family, Mistral, Qwen2 and ViT, which call
  scaled_dot_product_attention; eager for the rest, ONNX graphs, and with --checkpoint selective

training setup (training only; docs/llm.md):
  --grad-accum N      N micro-batches of --batch per optimizer step (default 1). An iteration is one optimizer step:
                      N forward + backward passes, then one update; epochs count iterations of batch x N samples;
                      the gradients stay alive across the micro-batches
  --checkpoint none|blocks|selective
                      blocks: activation checkpointing of the model's repeated blocks (transformer layers): each keeps
                      only its input and runs its forward again in backward; selective: only the eager attention
                      core (Q K^T, softmax, P V) runs again, its S x S tensors not kept (Korthikanti et al. 2022)
  --lora R [--lora-targets q,v|qkvo|all-linear]
                      LoRA of rank R: the base model frozen (no weight gradients or optimizer state), adapters A (R x in)
                      and B (out x R) on attention's q and v (default, as PEFT for LLaMA), on q, k, v and o, or on every
                      linear layer but the head; params counts base and adapters, trainable params the adapters
  --freeze none|embeddings|all-but-head
                      layers frozen without adapters (no weight gradients, optimizer state or gradient memory):
                      embeddings: the Embedding tables (and a head tied to them) and ViT's PatchEmbedding;
                      all-but-head: every layer but the last with parameters. Backward starts at the first layer
                      that trains; with --lora, all-but-head trains the head beside the adapters
  --loss cross-entropy|none
                      the loss over the model's output (default cross-entropy: log_softmax + nll_loss over the class
                      axis at every position, in fp32 under autocast; a language model's is the size of its logits
                      several times over); none: backward starts from a given d(output)

optimizers update as stock PyTorch does on a GPU: the multi-tensor (foreach) update, one kernel per arithmetic step over
every parameter (AdamW streams about 84 bytes a parameter); adam-fused and adamw-fused are fused=True or apex's
FusedAdam, one pass (28 bytes a parameter).

defaults: --batch 1, --mode train, --optimizer sgd (none for inference), --precision default, --attention the model's,
the model's own image side or context length, --samples = ImageNet-1k's 1,281,167 images or WikiText-103's 103,227,021 tokens
in sequences of --seq. --onnx: the file's batch (1 if symbolic); --seq/--image size its symbolic dimensions, and
--dim NAME=N[,NAME=N...] those of the names given, as the file names them (an encoder-decoder's src_len and tgt_len
apart; each name once, and one the file has); unmapped operators are listed and predicted by the roofline.
Exit codes: 0 success, 2 bad input (one line on stderr), 3 the output could not be written, 1 internal error.
)";

}  // namespace

std::string run_command(std::string_view command, std::span<const std::string> rest) {
  if (command == "predict") return predict_command(rest);
  if (command == "compare") return compare_command(rest);
  if (command == "memory") return memory_command(rest);
  if (command == "devices") return devices_command(rest);
  if (command == "models") return models_command(rest);
  if (command == "prices") return prices_command(rest);
  constexpr std::array<std::string_view, 6> commands{"predict", "compare", "memory", "devices", "models", "prices"};
  const std::string near = did_you_mean(command, commands);
  throw usage_error("unknown command " + quoted_text(command) + " (" + (near.empty() ? "" : near + " ") +
                    "predict, compare, memory, devices, models, prices; see --help)");
}

std::string one_line(std::string_view message) {
  std::string s(message);
  std::replace_if(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }, ' ');
  return s;
}

int run_cli(std::span<const std::string> args, std::ostream& out, std::ostream& err) noexcept {
  try {
    const auto is_help = [](const std::string& a) { return a == "--help" || a == "-h"; };
    if (args.empty()) throw usage_error("missing command (predict, compare, memory, devices, models, prices; see --help)");
    const bool help = args.front() == "help" || std::any_of(args.begin(), args.end(), is_help);
    const std::string text = help ? std::string(usage) : run_command(args.front(), args.subspan(1));
    // A full disk, a closed pipe (main ignores SIGPIPE so that this is seen): the output is lost or cut short.
    if (const std::optional<std::string> failed = write_text(out, text, "the output")) {
      err << "prenet: " << one_line(*failed) << '\n';
      return 3;
    }
    return 0;
  } catch (const usage_error& e) {
    err << "prenet: " << one_line(e.what()) << '\n';
    return 2;
  } catch (const output_error& e) {
    err << "prenet: " << one_line(e.what()) << '\n';
    return 3;
  } catch (const std::exception& e) {
    err << "prenet: internal error: " << one_line(e.what()) << '\n';
    return 1;
  } catch (...) {
    err << "prenet: internal error\n";
    return 1;
  }
}

}  // namespace prenet::cli
