// SPDX-License-Identifier: MIT
// prenet::devices: the constexpr catalogue of GPUs (and one generic CPU host) with their data-sheet numbers.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include <prenet/device_spec.hpp>
#include <prenet/units.hpp>

/// The catalogue: one `inline constexpr device_spec` per device, named by its CLI id with '-' spelled '_'
/// (`devices::a100_40gb` is id "a100-40gb"). Numbers are the vendor's data sheet at the boost clock; tensor peaks
/// are dense (the data sheets' "with sparsity" figures halved) with FP32 accumulate; memory is the data sheet's
/// "GB" read as GiB (DRAM comes in powers of two). Dual-GPU boards (K80, M60) are described per GPU, as CUDA sees
/// them. Sources and the disagreements with the datasets' own tables are in docs/devices.md.
namespace prenet::devices {

// --- Kepler, Maxwell, Pascal: no tensor cores ------------------------------------------------------------------

/// Tesla K40 (GK110B), board spec BD-06902: 15 SMX x 192, 745 MHz base, 875 MHz boost. The data sheet's
/// 4.29 TFLOPS is at the base clock; 2880 x 2 x 875 MHz = 5.04 TFLOPS at boost. 235 W board power.
inline constexpr device_spec k40{.id = "k40",
                                 .name = "Tesla K40",
                                 .peak_fp32_flops_per_s = 5.04e12,
                                 .memory_bandwidth_bytes_per_s = 288e9,
                                 .memory = 12_GiB,
                                 .sm_count = 15,
                                 .cores_per_sm = 192,
                                 .boost_clock_mhz = 875,
                                 .base_clock_mhz = 745,
                                 .tdp_watts = 235,
                                 .l2 = 1536_KiB,
                                 .gddr_ecc_on_by_default = true};

/// One GK210 of the dual-GPU Tesla K80 board (data sheet: 4992 cores, 8.73 TFLOPS with boost, 24 GB,
/// 480 GB/s per board): 13 SMX x 192, 560 MHz base, 875 MHz boost, 12 GB and 240 GB/s each; half the board's 300 W.
inline constexpr device_spec k80{.id = "k80",
                                 .name = "Tesla K80",
                                 .peak_fp32_flops_per_s = 4.365e12,
                                 .memory_bandwidth_bytes_per_s = 240e9,
                                 .memory = 12_GiB,
                                 .sm_count = 13,
                                 .cores_per_sm = 192,
                                 .boost_clock_mhz = 875,
                                 .base_clock_mhz = 560,
                                 .tdp_watts = 150,
                                 .l2 = 1536_KiB,
                                 .gddr_ecc_on_by_default = true};

/// One GM204 of the dual-GPU Tesla M60 board (data sheet: 4096 cores, 16 GB, 1178 MHz boost): 16 SMM x 128,
/// 8 GB and 160 GB/s each, 899 MHz base; half the board's 300 W maximum. The data sheet gives no FLOP rate:
/// 2048 x 2 x 1178 MHz = 4.82 TFLOPS.
inline constexpr device_spec m60{.id = "m60",
                                 .name = "Tesla M60",
                                 .peak_fp32_flops_per_s = 4.825e12,
                                 .memory_bandwidth_bytes_per_s = 160e9,
                                 .memory = 8_GiB,
                                 .sm_count = 16,
                                 .cores_per_sm = 128,
                                 .boost_clock_mhz = 1178,
                                 .base_clock_mhz = 899,
                                 .tdp_watts = 150,
                                 .l2 = 2_MiB,
                                 .gddr_ecc_on_by_default = true};

/// GeForce GTX TITAN X (GM200, Maxwell), NVIDIA's specifications: 3072 cores = 24 SMM x 128, 1000 MHz base, 1075 MHz
/// boost, 12 GB GDDR5 at 7 Gbps on 384 bits (336.5 GB/s), 250 W, 3 MB L2. NVIDIA quotes no FLOP rate: 3072 x 2 x 1075
/// MHz = 6.6 TFLOPS. No tensor cores.
inline constexpr device_spec titan_x_maxwell{.id = "titan-x-maxwell",
                                             .name = "NVIDIA GeForce GTX TITAN X",
                                             .peak_fp32_flops_per_s = 6.6e12,
                                             .memory_bandwidth_bytes_per_s = 336.5e9,
                                             .memory = 12_GiB,
                                             .sm_count = 24,
                                             .cores_per_sm = 128,
                                             .boost_clock_mhz = 1075,
                                             .base_clock_mhz = 1000,
                                             .tdp_watts = 250,
                                             .l2 = 3_MiB};

/// Tesla P4 (GP104), product brief: 20 SMs x 128, 810 MHz base, 1063 MHz boost, 5.5 TFLOPS FP32, 75 W (the
/// configurable maximum; 50 W is the low setting). Its FP16 rate (1/64) is not modelled.
inline constexpr device_spec p4{.id = "p4",
                                .name = "Tesla P4",
                                .peak_fp32_flops_per_s = 5.5e12,
                                .memory_bandwidth_bytes_per_s = 192e9,
                                .memory = 8_GiB,
                                .sm_count = 20,
                                .cores_per_sm = 128,
                                .boost_clock_mhz = 1063,
                                .base_clock_mhz = 810,
                                .tdp_watts = 75,
                                .l2 = 2_MiB,
                                .gddr_ecc_on_by_default = true};

/// Tesla P100 PCIe 16 GB (GP100), product brief: 56 SMs x 64, 1126 MHz base, 1303 MHz boost, 9.3 TFLOPS FP32, 250 W.
/// Its 18.7 TFLOPS of packed (non-tensor) FP16 is not modelled: the tensor fields are 0.
inline constexpr device_spec p100{.id = "p100",
                                  .name = "Tesla P100-PCIE-16GB",
                                  .peak_fp32_flops_per_s = 9.3e12,
                                  .memory_bandwidth_bytes_per_s = 732e9,
                                  .memory = 16_GiB,
                                  .sm_count = 56,
                                  .cores_per_sm = 64,
                                  .boost_clock_mhz = 1303,
                                  .base_clock_mhz = 1126,
                                  .tdp_watts = 250,
                                  .l2 = 4_MiB};

/// GeForce GTX 1080 (GP104), NVIDIA's specifications: 2560 cores = 20 SMs x 128, 1607 MHz base, 1733 MHz boost, 8.9
/// TFLOPS, 8 GB GDDR5X at 10 Gbps on 256 bits (320 GB/s), 180 W, 2 MB L2.
inline constexpr device_spec gtx1080{.id = "gtx1080",
                                     .name = "NVIDIA GeForce GTX 1080",
                                     .peak_fp32_flops_per_s = 8.9e12,
                                     .memory_bandwidth_bytes_per_s = 320e9,
                                     .memory = 8_GiB,
                                     .sm_count = 20,
                                     .cores_per_sm = 128,
                                     .boost_clock_mhz = 1733,
                                     .base_clock_mhz = 1607,
                                     .tdp_watts = 180,
                                     .l2 = 2_MiB};

/// GeForce GTX 1080 Ti (GP102), NVIDIA's specifications: 28 SMs x 128, 1480 MHz base, 1582 MHz boost, 11.3 TFLOPS,
/// 11 GB GDDR5X, 250 W.
inline constexpr device_spec gtx1080ti{.id = "gtx1080ti",
                                       .name = "NVIDIA GeForce GTX 1080 Ti",
                                       .peak_fp32_flops_per_s = 11.3e12,
                                       .memory_bandwidth_bytes_per_s = 484e9,
                                       .memory = 11_GiB,
                                       .sm_count = 28,
                                       .cores_per_sm = 128,
                                       .boost_clock_mhz = 1582,
                                       .base_clock_mhz = 1480,
                                       .tdp_watts = 250,
                                       .l2 = 2816_KiB};

/// NVIDIA TITAN X (Pascal, GP102), NVIDIA's specifications: 3584 cores = 28 SMs x 128, 1417 MHz base, 1531 MHz boost,
/// 11 TFLOPS, 12 GB GDDR5X at 10 Gbps on 384 bits (480 GB/s), 250 W, 3 MB L2 (all 12 memory controllers, where the GTX
/// 1080 Ti has 11).
inline constexpr device_spec titan_x_pascal{.id = "titan-x-pascal",
                                            .name = "NVIDIA TITAN X (Pascal)",
                                            .peak_fp32_flops_per_s = 11.0e12,
                                            .memory_bandwidth_bytes_per_s = 480e9,
                                            .memory = 12_GiB,
                                            .sm_count = 28,
                                            .cores_per_sm = 128,
                                            .boost_clock_mhz = 1531,
                                            .base_clock_mhz = 1417,
                                            .tdp_watts = 250,
                                            .l2 = 3_MiB};

/// NVIDIA TITAN Xp (full GP102), NVIDIA's specifications: 3840 cores = 30 SMs x 128, 1582 MHz boost, 12.1 TFLOPS, 12 GB
/// GDDR5X at 11.4 Gbps (547.7 GB/s), 250 W, 3 MB L2. NVIDIA publishes no base clock.
inline constexpr device_spec titan_xp{.id = "titan-xp",
                                      .name = "NVIDIA TITAN Xp",
                                      .peak_fp32_flops_per_s = 12.1e12,
                                      .memory_bandwidth_bytes_per_s = 547.7e9,
                                      .memory = 12_GiB,
                                      .sm_count = 30,
                                      .cores_per_sm = 128,
                                      .boost_clock_mhz = 1582,
                                      .tdp_watts = 250,
                                      .l2 = 3_MiB};

// --- Volta, Turing ------------------------------------------------------------------------------------------------

/// Tesla V100 PCIe 32 GB (GV100), data sheet: 14 TFLOPS FP32, 112 TFLOPS tensor (Volta: FP32 accumulate at full
/// rate), 900 GB/s, 250 W; product brief PB-08744: 1230 MHz base, 1380 MHz boost.
inline constexpr device_spec v100{.id = "v100",
                                  .name = "Tesla V100-PCIE-32GB",
                                  .peak_fp32_flops_per_s = 14.0e12,
                                  .peak_fp16_tensor_flops_per_s = 112e12,
                                  .memory_bandwidth_bytes_per_s = 900e9,
                                  .memory = 32_GiB,
                                  .sm_count = 80,
                                  .cores_per_sm = 64,
                                  .boost_clock_mhz = 1380,
                                  .base_clock_mhz = 1230,
                                  .tdp_watts = 250,
                                  .l2 = 6_MiB};

/// Tesla V100 SXM2 16 GB, data sheet: 15.7 TFLOPS FP32, 125 TFLOPS tensor (full rate), 1530 MHz boost, 300 W; no
/// NVIDIA document gives an SXM2 base clock. The GPU of AWS p3, where Justus et al. 2018 measured their "V100" data.
inline constexpr device_spec v100_sxm2{.id = "v100-sxm2",
                                       .name = "Tesla V100-SXM2-16GB",
                                       .peak_fp32_flops_per_s = 15.7e12,
                                       .peak_fp16_tensor_flops_per_s = 125e12,
                                       .memory_bandwidth_bytes_per_s = 900e9,
                                       .memory = 16_GiB,
                                       .sm_count = 80,
                                       .cores_per_sm = 64,
                                       .boost_clock_mhz = 1530,
                                       .tdp_watts = 300,
                                       .l2 = 6_MiB};

/// Tesla V100 SXM2 32 GB, data sheet: as the 16 GB SXM2 (15.7 TFLOPS FP32, 125 TFLOPS tensor at full rate, 900 GB/s,
/// 1530 MHz boost, 300 W) with 32 GB of HBM2. The GPU of DGX-1 with V100 32 GB.
inline constexpr device_spec v100_sxm2_32gb{.id = "v100-sxm2-32gb",
                                            .name = "Tesla V100-SXM2-32GB",
                                            .peak_fp32_flops_per_s = 15.7e12,
                                            .peak_fp16_tensor_flops_per_s = 125e12,
                                            .memory_bandwidth_bytes_per_s = 900e9,
                                            .memory = 32_GiB,
                                            .sm_count = 80,
                                            .cores_per_sm = 64,
                                            .boost_clock_mhz = 1530,
                                            .tdp_watts = 300,
                                            .l2 = 6_MiB};

/// Tesla V100 SXM3 32 GB, the GPU of DGX-2 (DGX-2 data sheet: 16 GPUs, 2 PFLOPS tensor = 125 TFLOPS each, 512 GB): the
/// SXM2 part's rates (15.7 / 125 TFLOPS, 900 GB/s, 1530 MHz boost) at a 350 W limit.
inline constexpr device_spec v100_sxm3_32gb{.id = "v100-sxm3-32gb",
                                            .name = "Tesla V100-SXM3-32GB",
                                            .peak_fp32_flops_per_s = 15.7e12,
                                            .peak_fp16_tensor_flops_per_s = 125e12,
                                            .memory_bandwidth_bytes_per_s = 900e9,
                                            .memory = 32_GiB,
                                            .sm_count = 80,
                                            .cores_per_sm = 64,
                                            .boost_clock_mhz = 1530,
                                            .tdp_watts = 350,
                                            .l2 = 6_MiB};

/// Tesla V100 SXM3 32 GB "H", the 450 W GPU of DGX-2H (DGX-2H data sheet: 16 GPUs, 2.1 PFLOPS tensor = 131 TFLOPS
/// each). It differs from v100-sxm3-32gb only in clock and power: 131.25 TFLOPS / (640 tensor cores x 128 FLOPs) = 1602
/// MHz, so 5120 x 2 x 1602 MHz = 16.4 TFLOPS FP32. Memory as DGX-2 (900 GB/s).
inline constexpr device_spec v100_sxm3_32gb_h{.id = "v100-sxm3-32gb-h",
                                              .name = "Tesla V100-SXM3-32GB-H",
                                              .peak_fp32_flops_per_s = 16.4e12,
                                              .peak_fp16_tensor_flops_per_s = 131e12,
                                              .memory_bandwidth_bytes_per_s = 900e9,
                                              .memory = 32_GiB,
                                              .sm_count = 80,
                                              .cores_per_sm = 64,
                                              .boost_clock_mhz = 1602,
                                              .tdp_watts = 450,
                                              .l2 = 6_MiB};

/// NVIDIA TITAN V (GV100), NVIDIA's specifications: 5120 cores = 80 SMs x 64, 640 tensor cores, 1200 MHz base, 1455 MHz
/// boost, 14.9 TFLOPS FP32, "110 TFLOPS" deep-learning (tensor) peak (Volta: FP32 accumulate at full rate; NVIDIA's
/// figure is below 640 x 128 x 1455 MHz = 119 TFLOPS and is kept as published), 12 GB HBM2 on 3072 bits (652.8 GB/s),
/// 250 W, 4.5 MB L2.
inline constexpr device_spec titan_v{.id = "titan-v",
                                     .name = "NVIDIA TITAN V",
                                     .peak_fp32_flops_per_s = 14.9e12,
                                     .peak_fp16_tensor_flops_per_s = 110e12,
                                     .memory_bandwidth_bytes_per_s = 652.8e9,
                                     .memory = 12_GiB,
                                     .sm_count = 80,
                                     .cores_per_sm = 64,
                                     .boost_clock_mhz = 1455,
                                     .base_clock_mhz = 1200,
                                     .tdp_watts = 250,
                                     .l2 = 4608_KiB};

/// Tesla T4 (TU104), data sheet: 8.1 TFLOPS FP32, 65 TFLOPS FP16 tensor (mixed precision, FP32 accumulate at full
/// rate), 320 GB/s, 70 W; product brief: 585 MHz base, 1590 MHz boost. Turing has no BF16 and no TF32.
inline constexpr device_spec t4{.id = "t4",
                                .name = "Tesla T4",
                                .peak_fp32_flops_per_s = 8.1e12,
                                .peak_fp16_tensor_flops_per_s = 65e12,
                                .memory_bandwidth_bytes_per_s = 320e9,
                                .memory = 16_GiB,
                                .sm_count = 40,
                                .cores_per_sm = 64,
                                .boost_clock_mhz = 1590,
                                .base_clock_mhz = 585,
                                .tdp_watts = 70,
                                .l2 = 4_MiB,
                                .gddr_ecc_on_by_default = true};

/// GeForce RTX 2080 Ti (TU102), NVIDIA Turing architecture whitepaper (reference card): 4352 cores = 68 SMs x 64, 1350
/// MHz base, 1545 MHz boost, 13.4 TFLOPS FP32, 53.8 TFLOPS FP16 tensor with FP32 accumulate (GeForce: half the 107.6
/// FP16-accumulate rate), 11 GB GDDR6 at 14 Gbps on 352 bits (616 GB/s), 250 W, 5.5 MB L2. (The Founders Edition runs
/// 1635 MHz at 260 W.)
inline constexpr device_spec rtx2080ti{.id = "rtx2080ti",
                                       .name = "NVIDIA GeForce RTX 2080 Ti",
                                       .peak_fp32_flops_per_s = 13.4e12,
                                       .peak_fp16_tensor_flops_per_s = 53.8e12,
                                       .memory_bandwidth_bytes_per_s = 616e9,
                                       .memory = 11_GiB,
                                       .sm_count = 68,
                                       .cores_per_sm = 64,
                                       .boost_clock_mhz = 1545,
                                       .base_clock_mhz = 1350,
                                       .tdp_watts = 250,
                                       .l2 = 5632_KiB};

/// NVIDIA TITAN RTX (full TU102), NVIDIA's specifications: 4608 cores = 72 SMs x 64, 576 tensor cores, 1350 MHz base,
/// 1770 MHz boost, 16.3 TFLOPS FP32, 130 TFLOPS tensor (576 x 128 x 1770 MHz = 130.5: TITAN RTX runs FP32 accumulate at
/// full rate, unlike GeForce), 24 GB GDDR6 (672 GB/s), 280 W, 6 MB L2.
inline constexpr device_spec titan_rtx{.id = "titan-rtx",
                                       .name = "NVIDIA TITAN RTX",
                                       .peak_fp32_flops_per_s = 16.3e12,
                                       .peak_fp16_tensor_flops_per_s = 130.5e12,
                                       .memory_bandwidth_bytes_per_s = 672e9,
                                       .memory = 24_GiB,
                                       .sm_count = 72,
                                       .cores_per_sm = 64,
                                       .boost_clock_mhz = 1770,
                                       .base_clock_mhz = 1350,
                                       .tdp_watts = 280,
                                       .l2 = 6_MiB};

/// Quadro RTX 5000 (TU104), data sheet: 3072 cores = 48 SMs x 64, 11.2 TFLOPS FP32 (1815 MHz boost), 89.2 TFLOPS tensor
/// (384 x 128 x 1815 MHz; a workstation part: FP32 accumulate at full rate), 16 GB GDDR6 (448 GB/s), 230 W graphics
/// power (265 W board power with VirtualLink), 4 MB L2. The data sheet gives no base clock.
inline constexpr device_spec quadro_rtx5000{.id = "quadro-rtx5000",
                                            .name = "Quadro RTX 5000",
                                            .peak_fp32_flops_per_s = 11.2e12,
                                            .peak_fp16_tensor_flops_per_s = 89.2e12,
                                            .memory_bandwidth_bytes_per_s = 448e9,
                                            .memory = 16_GiB,
                                            .sm_count = 48,
                                            .cores_per_sm = 64,
                                            .boost_clock_mhz = 1815,
                                            .tdp_watts = 230,
                                            .l2 = 4_MiB};

/// Quadro RTX 6000 (TU102), data sheet and Turing whitepaper: 4608 cores = 72 SMs x 64, 16.3 TFLOPS FP32 (1770 MHz
/// boost), 130.5 TFLOPS FP16 tensor with FP32 accumulate (full rate), 24 GB GDDR6 (672 GB/s), 260 W graphics power (295
/// W board power with VirtualLink), 6 MB L2. No base clock published.
inline constexpr device_spec quadro_rtx6000{.id = "quadro-rtx6000",
                                            .name = "Quadro RTX 6000",
                                            .peak_fp32_flops_per_s = 16.3e12,
                                            .peak_fp16_tensor_flops_per_s = 130.5e12,
                                            .memory_bandwidth_bytes_per_s = 672e9,
                                            .memory = 24_GiB,
                                            .sm_count = 72,
                                            .cores_per_sm = 64,
                                            .boost_clock_mhz = 1770,
                                            .tdp_watts = 260,
                                            .l2 = 6_MiB};

/// Quadro RTX 8000 (TU102), data sheet: the Quadro RTX 6000 (16.3 / 130.5 TFLOPS, 672 GB/s, 1770 MHz boost, 260 W
/// graphics power) with 48 GB of GDDR6.
inline constexpr device_spec quadro_rtx8000{.id = "quadro-rtx8000",
                                            .name = "Quadro RTX 8000",
                                            .peak_fp32_flops_per_s = 16.3e12,
                                            .peak_fp16_tensor_flops_per_s = 130.5e12,
                                            .memory_bandwidth_bytes_per_s = 672e9,
                                            .memory = 48_GiB,
                                            .sm_count = 72,
                                            .cores_per_sm = 64,
                                            .boost_clock_mhz = 1770,
                                            .tdp_watts = 260,
                                            .l2 = 6_MiB};

/// GeForce RTX 2070 with Max-Q Design (laptop, TU106). NVIDIA's laptop specifications give a range set by the maker's
/// power limit; this entry is the 80 W configuration: 2304 cores = 36 SMs x 64, 885 MHz base, 1185 MHz boost, so 2304 x
/// 2 x 1185 MHz = 5.46 TFLOPS FP32 and 36 SMs x 512 x 1185 MHz = 21.8 TFLOPS FP16 tensor with FP32 accumulate (GeForce:
/// half rate); 8 GB GDDR6 at 12 Gbps on 256 bits (384 GB/s), 4 MB L2.
inline constexpr device_spec rtx2070_maxq{.id = "rtx2070-maxq",
                                          .name = "NVIDIA GeForce RTX 2070 with Max-Q Design",
                                          .peak_fp32_flops_per_s = 5.46e12,
                                          .peak_fp16_tensor_flops_per_s = 21.8e12,
                                          .memory_bandwidth_bytes_per_s = 384e9,
                                          .memory = 8_GiB,
                                          .sm_count = 36,
                                          .cores_per_sm = 64,
                                          .boost_clock_mhz = 1185,
                                          .base_clock_mhz = 885,
                                          .tdp_watts = 80,
                                          .l2 = 4_MiB};

/// GeForce RTX 2080 with Max-Q Design (laptop, TU104), the 80 W configuration of NVIDIA's laptop range: 2944 cores = 46
/// SMs x 64, 735 MHz base, 1095 MHz boost: 6.45 TFLOPS FP32 and 25.8 TFLOPS FP16 tensor with FP32 accumulate (GeForce:
/// half rate); 8 GB GDDR6 at 12 Gbps (384 GB/s), 4 MB L2.
inline constexpr device_spec rtx2080_maxq{.id = "rtx2080-maxq",
                                          .name = "NVIDIA GeForce RTX 2080 with Max-Q Design",
                                          .peak_fp32_flops_per_s = 6.45e12,
                                          .peak_fp16_tensor_flops_per_s = 25.8e12,
                                          .memory_bandwidth_bytes_per_s = 384e9,
                                          .memory = 8_GiB,
                                          .sm_count = 46,
                                          .cores_per_sm = 64,
                                          .boost_clock_mhz = 1095,
                                          .base_clock_mhz = 735,
                                          .tdp_watts = 80,
                                          .l2 = 4_MiB};

/// GeForce RTX 2080 Super with Max-Q Design (laptop, TU104), the 80 W configuration of NVIDIA's laptop range: 3072
/// cores = 48 SMs x 64, 735 MHz base, 975 MHz boost: 5.99 TFLOPS FP32 and 24.0 TFLOPS FP16 tensor with FP32 accumulate
/// (GeForce: half rate); 8 GB GDDR6 at 11 Gbps (352 GB/s), 4 MB L2.
inline constexpr device_spec rtx2080super_maxq{.id = "rtx2080super-maxq",
                                               .name = "NVIDIA GeForce RTX 2080 Super with Max-Q Design",
                                               .peak_fp32_flops_per_s = 5.99e12,
                                               .peak_fp16_tensor_flops_per_s = 24.0e12,
                                               .memory_bandwidth_bytes_per_s = 352e9,
                                               .memory = 8_GiB,
                                               .sm_count = 48,
                                               .cores_per_sm = 64,
                                               .boost_clock_mhz = 975,
                                               .base_clock_mhz = 735,
                                               .tdp_watts = 80,
                                               .l2 = 4_MiB};

// --- Ampere -------------------------------------------------------------------------------------------------------

/// NVIDIA A100 PCIe 40 GB, data sheet: 19.5 TFLOPS FP32, 156 TFLOPS TF32 and 312 TFLOPS FP16 and BF16 tensor
/// (dense; 312 / 624 with sparsity; FP32 accumulate at full rate), 1555 GB/s, 250 W; product brief: 765 MHz base,
/// 1410 MHz boost.
inline constexpr device_spec a100_40gb{.id = "a100-40gb",
                                       .name = "NVIDIA A100-PCIE-40GB",
                                       .peak_fp32_flops_per_s = 19.5e12,
                                       .peak_tf32_tensor_flops_per_s = 156e12,
                                       .peak_fp16_tensor_flops_per_s = 312e12,
                                       .peak_bf16_tensor_flops_per_s = 312e12,
                                       .memory_bandwidth_bytes_per_s = 1555e9,
                                       .memory = 40_GiB,
                                       .sm_count = 108,
                                       .cores_per_sm = 64,
                                       .boost_clock_mhz = 1410,
                                       .base_clock_mhz = 765,
                                       .tdp_watts = 250,
                                       .l2 = 40_MiB};

/// NVIDIA A100 80 GB PCIe, data sheet: as the 40 GB card (156 TF32, 312 FP16/BF16 dense) with 1935 GB/s of HBM2e,
/// 300 W; product brief: 1065 MHz base, 1410 MHz boost.
inline constexpr device_spec a100_80gb{.id = "a100-80gb",
                                       .name = "NVIDIA A100 80GB PCIe",
                                       .peak_fp32_flops_per_s = 19.5e12,
                                       .peak_tf32_tensor_flops_per_s = 156e12,
                                       .peak_fp16_tensor_flops_per_s = 312e12,
                                       .peak_bf16_tensor_flops_per_s = 312e12,
                                       .memory_bandwidth_bytes_per_s = 1935e9,
                                       .memory = 80_GiB,
                                       .sm_count = 108,
                                       .cores_per_sm = 64,
                                       .boost_clock_mhz = 1410,
                                       .base_clock_mhz = 1065,
                                       .tdp_watts = 300,
                                       .l2 = 40_MiB};

/// NVIDIA A100 SXM4 40 GB, data sheet: the PCIe card's rates (19.5 / 156 / 312 TFLOPS, 1555 GB/s) at 400 W; no
/// NVIDIA document gives an SXM4 base clock.
inline constexpr device_spec a100_sxm4_40gb{.id = "a100-sxm4-40gb",
                                            .name = "NVIDIA A100-SXM4-40GB",
                                            .peak_fp32_flops_per_s = 19.5e12,
                                            .peak_tf32_tensor_flops_per_s = 156e12,
                                            .peak_fp16_tensor_flops_per_s = 312e12,
                                            .peak_bf16_tensor_flops_per_s = 312e12,
                                            .memory_bandwidth_bytes_per_s = 1555e9,
                                            .memory = 40_GiB,
                                            .sm_count = 108,
                                            .cores_per_sm = 64,
                                            .boost_clock_mhz = 1410,
                                            .tdp_watts = 400,
                                            .l2 = 40_MiB};

/// NVIDIA A100 SXM4 80 GB, data sheet: 19.5 TFLOPS FP32, 156 TF32 and 312 FP16/BF16 dense tensor TFLOPS (full rate),
/// 2039 GB/s of HBM2e, 400 W. No base clock published.
inline constexpr device_spec a100_sxm4_80gb{.id = "a100-sxm4-80gb",
                                            .name = "NVIDIA A100-SXM4-80GB",
                                            .peak_fp32_flops_per_s = 19.5e12,
                                            .peak_tf32_tensor_flops_per_s = 156e12,
                                            .peak_fp16_tensor_flops_per_s = 312e12,
                                            .peak_bf16_tensor_flops_per_s = 312e12,
                                            .memory_bandwidth_bytes_per_s = 2039e9,
                                            .memory = 80_GiB,
                                            .sm_count = 108,
                                            .cores_per_sm = 64,
                                            .boost_clock_mhz = 1410,
                                            .tdp_watts = 400,
                                            .l2 = 40_MiB};

/// NVIDIA A30 (GA100), data sheet: 10.3 TFLOPS FP32, 82 TF32 and 165 FP16/BF16 dense tensor TFLOPS (165 / 330 with
/// sparsity; full rate), 24 GB HBM2 at 933 GB/s, 165 W; product brief: 3584 cores = 56 SMs x 64, 930 MHz base, 1440 MHz
/// boost, 24 MB L2.
inline constexpr device_spec a30{.id = "a30",
                                 .name = "NVIDIA A30",
                                 .peak_fp32_flops_per_s = 10.3e12,
                                 .peak_tf32_tensor_flops_per_s = 82e12,
                                 .peak_fp16_tensor_flops_per_s = 165e12,
                                 .peak_bf16_tensor_flops_per_s = 165e12,
                                 .memory_bandwidth_bytes_per_s = 933e9,
                                 .memory = 24_GiB,
                                 .sm_count = 56,
                                 .cores_per_sm = 64,
                                 .boost_clock_mhz = 1440,
                                 .base_clock_mhz = 930,
                                 .tdp_watts = 165,
                                 .l2 = 24_MiB};

/// NVIDIA A10 (GA102), data sheet: 31.2 TFLOPS FP32, 62.5 TF32 and 125 FP16/BF16 dense tensor TFLOPS (125 / 250 with
/// sparsity; data-centre part, full rate), 24 GB GDDR6 at 600 GB/s, 150 W; product brief: 9216 cores = 72 SMs x 128,
/// 885 MHz base, 1695 MHz boost, 6 MB L2.
inline constexpr device_spec a10{.id = "a10",
                                 .name = "NVIDIA A10",
                                 .peak_fp32_flops_per_s = 31.2e12,
                                 .peak_tf32_tensor_flops_per_s = 62.5e12,
                                 .peak_fp16_tensor_flops_per_s = 125e12,
                                 .peak_bf16_tensor_flops_per_s = 125e12,
                                 .memory_bandwidth_bytes_per_s = 600e9,
                                 .memory = 24_GiB,
                                 .sm_count = 72,
                                 .cores_per_sm = 128,
                                 .boost_clock_mhz = 1695,
                                 .base_clock_mhz = 885,
                                 .tdp_watts = 150,
                                 .l2 = 6_MiB,
                                 .gddr_ecc_on_by_default = true};

/// NVIDIA A10G (GA102), the GPU of AWS EC2 G5. Neither NVIDIA nor AWS publishes a data sheet; AWS gives 24 GB. The
/// numbers are the card's as reported by nvidia-smi and in Baseten's A10-vs-A10G spec comparison: 80 SMs x 128 at 1710
/// MHz boost = 35 TFLOPS FP32, 70 TFLOPS FP16/BF16 dense tensor with FP32 accumulate (half the A10's rate per SM-clock,
/// as GeForce) and 35 TF32, 600 GB/s, 300 W power limit, 6 MB L2. No base clock published.
inline constexpr device_spec a10g{.id = "a10g",
                                  .name = "NVIDIA A10G",
                                  .peak_fp32_flops_per_s = 35.0e12,
                                  .peak_tf32_tensor_flops_per_s = 35.0e12,
                                  .peak_fp16_tensor_flops_per_s = 70.0e12,
                                  .peak_bf16_tensor_flops_per_s = 70.0e12,
                                  .memory_bandwidth_bytes_per_s = 600e9,
                                  .memory = 24_GiB,
                                  .sm_count = 80,
                                  .cores_per_sm = 128,
                                  .boost_clock_mhz = 1710,
                                  .tdp_watts = 300,
                                  .l2 = 6_MiB,
                                  .gddr_ecc_on_by_default = true};

/// NVIDIA A40 (GA102), data sheet: 10752 cores = 84 SMs x 128, 37.4 TFLOPS FP32, 74.8 TF32 and 149.7 FP16/BF16 dense
/// tensor TFLOPS (149.6 / 299.4 with sparsity; full rate), 48 GB GDDR6 at 696 GB/s, 300 W; product brief: 1305 MHz
/// base, 1740 MHz boost, 6 MB L2.
inline constexpr device_spec a40{.id = "a40",
                                 .name = "NVIDIA A40",
                                 .peak_fp32_flops_per_s = 37.4e12,
                                 .peak_tf32_tensor_flops_per_s = 74.8e12,
                                 .peak_fp16_tensor_flops_per_s = 149.7e12,
                                 .peak_bf16_tensor_flops_per_s = 149.7e12,
                                 .memory_bandwidth_bytes_per_s = 696e9,
                                 .memory = 48_GiB,
                                 .sm_count = 84,
                                 .cores_per_sm = 128,
                                 .boost_clock_mhz = 1740,
                                 .base_clock_mhz = 1305,
                                 .tdp_watts = 300,
                                 .l2 = 6_MiB,
                                 .gddr_ecc_on_by_default = true};

/// One of the four GA107 GPUs of the NVIDIA A16 board, as CUDA sees it (data sheet, per GPU: 1280 cores = 10 SMs x 128,
/// 4.5 TFLOPS FP32, 9 TF32 and 17.9 FP16/BF16 dense tensor TFLOPS (18 / 35.9 with sparsity; full rate), 16 GB GDDR6 at
/// 200 GB/s); a quarter of the board's 250 W; product brief: 885 MHz base, 1755 MHz boost; GA107 has 2 MB of L2.
inline constexpr device_spec a16{.id = "a16",
                                 .name = "NVIDIA A16",
                                 .peak_fp32_flops_per_s = 4.5e12,
                                 .peak_tf32_tensor_flops_per_s = 9.0e12,
                                 .peak_fp16_tensor_flops_per_s = 17.95e12,
                                 .peak_bf16_tensor_flops_per_s = 17.95e12,
                                 .memory_bandwidth_bytes_per_s = 200e9,
                                 .memory = 16_GiB,
                                 .sm_count = 10,
                                 .cores_per_sm = 128,
                                 .boost_clock_mhz = 1755,
                                 .base_clock_mhz = 885,
                                 .tdp_watts = 62.5,
                                 .l2 = 2_MiB,
                                 .gddr_ecc_on_by_default = true};

/// NVIDIA A2 (GA107), data sheet: 1280 cores = 10 SMs x 128, 4.5 TFLOPS FP32, 9 TF32 and 18 FP16/BF16 dense tensor
/// TFLOPS (18 / 36 with sparsity; full rate), 16 GB GDDR6 at 200 GB/s, 60 W (configurable 40-60 W); product brief: 1440
/// MHz base, 1770 MHz boost; 2 MB L2.
inline constexpr device_spec a2{.id = "a2",
                                .name = "NVIDIA A2",
                                .peak_fp32_flops_per_s = 4.5e12,
                                .peak_tf32_tensor_flops_per_s = 9.0e12,
                                .peak_fp16_tensor_flops_per_s = 18.0e12,
                                .peak_bf16_tensor_flops_per_s = 18.0e12,
                                .memory_bandwidth_bytes_per_s = 200e9,
                                .memory = 16_GiB,
                                .sm_count = 10,
                                .cores_per_sm = 128,
                                .boost_clock_mhz = 1770,
                                .base_clock_mhz = 1440,
                                .tdp_watts = 60,
                                .l2 = 2_MiB,
                                .gddr_ecc_on_by_default = true};

/// GeForce RTX 3070 (GA104), NVIDIA Ampere GA102 whitepaper appendix: 5888 cores = 46 SMs x 128, 1500 MHz base, 1725
/// MHz boost, 20.3 TFLOPS FP32; tensor dense with FP32 accumulate (GeForce: half rate): 20.3 TF32, 40.6 FP16/BF16 (81.3
/// with FP16 accumulate); 8 GB GDDR6 at 14 Gbps (448 GB/s), 220 W, 4 MB L2.
inline constexpr device_spec rtx3070{.id = "rtx3070",
                                     .name = "NVIDIA GeForce RTX 3070",
                                     .peak_fp32_flops_per_s = 20.3e12,
                                     .peak_tf32_tensor_flops_per_s = 20.3e12,
                                     .peak_fp16_tensor_flops_per_s = 40.6e12,
                                     .peak_bf16_tensor_flops_per_s = 40.6e12,
                                     .memory_bandwidth_bytes_per_s = 448e9,
                                     .memory = 8_GiB,
                                     .sm_count = 46,
                                     .cores_per_sm = 128,
                                     .boost_clock_mhz = 1725,
                                     .base_clock_mhz = 1500,
                                     .tdp_watts = 220,
                                     .l2 = 4_MiB};

/// GeForce RTX 3080 10 GB (GA102), NVIDIA Ampere GA102 whitepaper: 8704 cores = 68 SMs x 128, 1440 MHz base, 1710 MHz
/// boost, 29.8 TFLOPS FP32; tensor dense with FP32 accumulate (GeForce: half rate): 29.8 TF32, 59.5 FP16/BF16 (119 with
/// FP16 accumulate); 10 GB GDDR6X at 19 Gbps on 320 bits (760 GB/s), 320 W, 5 MB L2.
inline constexpr device_spec rtx3080{.id = "rtx3080",
                                     .name = "NVIDIA GeForce RTX 3080",
                                     .peak_fp32_flops_per_s = 29.8e12,
                                     .peak_tf32_tensor_flops_per_s = 29.8e12,
                                     .peak_fp16_tensor_flops_per_s = 59.5e12,
                                     .peak_bf16_tensor_flops_per_s = 59.5e12,
                                     .memory_bandwidth_bytes_per_s = 760e9,
                                     .memory = 10_GiB,
                                     .sm_count = 68,
                                     .cores_per_sm = 128,
                                     .boost_clock_mhz = 1710,
                                     .base_clock_mhz = 1440,
                                     .tdp_watts = 320,
                                     .l2 = 5_MiB};

/// GeForce RTX 3080 Ti (GA102), NVIDIA's specifications: 10240 cores = 80 SMs x 128, 1365 MHz base, 1665 MHz boost,
/// 34.1 TFLOPS FP32; tensor dense with FP32 accumulate (GeForce: half rate): 80 x 512 x 1665 MHz = 68.2 TFLOPS
/// FP16/BF16, 34.1 TF32; 12 GB GDDR6X at 19 Gbps on 384 bits (912 GB/s), 350 W, 6 MB L2.
inline constexpr device_spec rtx3080ti{.id = "rtx3080ti",
                                       .name = "NVIDIA GeForce RTX 3080 Ti",
                                       .peak_fp32_flops_per_s = 34.1e12,
                                       .peak_tf32_tensor_flops_per_s = 34.1e12,
                                       .peak_fp16_tensor_flops_per_s = 68.2e12,
                                       .peak_bf16_tensor_flops_per_s = 68.2e12,
                                       .memory_bandwidth_bytes_per_s = 912e9,
                                       .memory = 12_GiB,
                                       .sm_count = 80,
                                       .cores_per_sm = 128,
                                       .boost_clock_mhz = 1665,
                                       .base_clock_mhz = 1365,
                                       .tdp_watts = 350,
                                       .l2 = 6_MiB};

/// GeForce RTX 3090 (GA102), NVIDIA Ampere GA102 whitepaper: 82 SMs x 128, 1395 MHz base, 1695 MHz boost, 35.6 TFLOPS,
/// 350 W; tensor 71 TFLOPS FP16/BF16 and 35.6 TF32, dense with FP32 accumulate (GeForce runs FP32 accumulate at half
/// the FP16-accumulate rate of 142).
inline constexpr device_spec rtx3090{.id = "rtx3090",
                                     .name = "NVIDIA GeForce RTX 3090",
                                     .peak_fp32_flops_per_s = 35.6e12,
                                     .peak_tf32_tensor_flops_per_s = 35.6e12,
                                     .peak_fp16_tensor_flops_per_s = 71e12,
                                     .peak_bf16_tensor_flops_per_s = 71e12,
                                     .memory_bandwidth_bytes_per_s = 936e9,
                                     .memory = 24_GiB,
                                     .sm_count = 82,
                                     .cores_per_sm = 128,
                                     .boost_clock_mhz = 1695,
                                     .base_clock_mhz = 1395,
                                     .tdp_watts = 350,
                                     .l2 = 6_MiB};

/// GeForce RTX 3090 Ti (full GA102), NVIDIA's specifications: 10752 cores = 84 SMs x 128, 1560 MHz base, 1860 MHz
/// boost, 40 TFLOPS FP32; tensor dense with FP32 accumulate (GeForce: half rate): 84 x 512 x 1860 MHz = 80 TFLOPS
/// FP16/BF16, 40 TF32; 24 GB GDDR6X at 21 Gbps (1008 GB/s), 450 W, 6 MB L2.
inline constexpr device_spec rtx3090ti{.id = "rtx3090ti",
                                       .name = "NVIDIA GeForce RTX 3090 Ti",
                                       .peak_fp32_flops_per_s = 40.0e12,
                                       .peak_tf32_tensor_flops_per_s = 40.0e12,
                                       .peak_fp16_tensor_flops_per_s = 80.0e12,
                                       .peak_bf16_tensor_flops_per_s = 80.0e12,
                                       .memory_bandwidth_bytes_per_s = 1008e9,
                                       .memory = 24_GiB,
                                       .sm_count = 84,
                                       .cores_per_sm = 128,
                                       .boost_clock_mhz = 1860,
                                       .base_clock_mhz = 1560,
                                       .tdp_watts = 450,
                                       .l2 = 6_MiB};

/// GeForce RTX 3080 Laptop GPU with Max-Q (GA104). NVIDIA's laptop specifications give 1245-1710 MHz boost for 80-150+
/// W; this entry is the 80 W Max-Q configuration: 6144 cores = 48 SMs x 128, 780 MHz base, 1245 MHz boost: 15.3 TFLOPS
/// FP32; tensor with FP32 accumulate (GeForce: half rate) 30.6 FP16/BF16, 15.3 TF32; 16 GB GDDR6 at 12 Gbps on 256 bits
/// (384 GB/s), 4 MB L2.
inline constexpr device_spec rtx3080_maxq{.id = "rtx3080-maxq",
                                          .name = "NVIDIA GeForce RTX 3080 Laptop GPU (Max-Q, 80 W)",
                                          .peak_fp32_flops_per_s = 15.3e12,
                                          .peak_tf32_tensor_flops_per_s = 15.3e12,
                                          .peak_fp16_tensor_flops_per_s = 30.6e12,
                                          .peak_bf16_tensor_flops_per_s = 30.6e12,
                                          .memory_bandwidth_bytes_per_s = 384e9,
                                          .memory = 16_GiB,
                                          .sm_count = 48,
                                          .cores_per_sm = 128,
                                          .boost_clock_mhz = 1245,
                                          .base_clock_mhz = 780,
                                          .tdp_watts = 80,
                                          .l2 = 4_MiB};

/// NVIDIA RTX A2000 6 GB (GA106), data sheet: 3328 cores = 26 SMs x 128, 8.0 TFLOPS FP32 (1200 MHz boost), 63.9 TFLOPS
/// tensor with sparsity (31.95 dense, workstation part: full rate; TF32 16.0), 6 GB GDDR6 (288 GB/s), 70 W, 3 MB L2. No
/// base clock published. (The 12 GB card has the same rates.)
inline constexpr device_spec rtx_a2000{.id = "rtx-a2000",
                                       .name = "NVIDIA RTX A2000",
                                       .peak_fp32_flops_per_s = 8.0e12,
                                       .peak_tf32_tensor_flops_per_s = 16.0e12,
                                       .peak_fp16_tensor_flops_per_s = 31.95e12,
                                       .peak_bf16_tensor_flops_per_s = 31.95e12,
                                       .memory_bandwidth_bytes_per_s = 288e9,
                                       .memory = 6_GiB,
                                       .sm_count = 26,
                                       .cores_per_sm = 128,
                                       .boost_clock_mhz = 1200,
                                       .tdp_watts = 70,
                                       .l2 = 3_MiB};

/// NVIDIA RTX A4000 (GA104), data sheet: 48 SMs x 128, 19.2 TFLOPS FP32 (1560 MHz boost), 153.4 TFLOPS tensor with
/// sparsity (76.7 dense; a workstation part: FP32 accumulate at full rate, TF32 at half the FP16 rate), 448 GB/s,
/// 140 W. The data sheet gives no base clock.
inline constexpr device_spec rtx_a4000{.id = "rtx-a4000",
                                       .name = "NVIDIA RTX A4000",
                                       .peak_fp32_flops_per_s = 19.2e12,
                                       .peak_tf32_tensor_flops_per_s = 38.35e12,
                                       .peak_fp16_tensor_flops_per_s = 76.7e12,
                                       .peak_bf16_tensor_flops_per_s = 76.7e12,
                                       .memory_bandwidth_bytes_per_s = 448e9,
                                       .memory = 16_GiB,
                                       .sm_count = 48,
                                       .cores_per_sm = 128,
                                       .boost_clock_mhz = 1560,
                                       .tdp_watts = 140,
                                       .l2 = 4_MiB};

/// NVIDIA RTX A4500 (GA102), data sheet: 7168 cores = 56 SMs x 128, 23.7 TFLOPS FP32 (1650 MHz boost), 189.2 TFLOPS
/// tensor with sparsity (94.6 dense; a workstation part: FP32 accumulate at full rate, TF32 at half the FP16 rate:
/// 47.3), 20 GB GDDR6 on 320 bits (640 GB/s), 200 W, 5 MB L2. No base clock published.
inline constexpr device_spec rtx_a4500{.id = "rtx-a4500",
                                       .name = "NVIDIA RTX A4500",
                                       .peak_fp32_flops_per_s = 23.7e12,
                                       .peak_tf32_tensor_flops_per_s = 47.3e12,
                                       .peak_fp16_tensor_flops_per_s = 94.6e12,
                                       .peak_bf16_tensor_flops_per_s = 94.6e12,
                                       .memory_bandwidth_bytes_per_s = 640e9,
                                       .memory = 20_GiB,
                                       .sm_count = 56,
                                       .cores_per_sm = 128,
                                       .boost_clock_mhz = 1650,
                                       .tdp_watts = 200,
                                       .l2 = 5_MiB};

/// NVIDIA RTX A5000 (GA102), data sheet: 8192 cores = 64 SMs x 128, 27.8 TFLOPS FP32 (1695 MHz boost), 222.2 TFLOPS
/// tensor with sparsity (111.1 dense, full rate; TF32 55.6), 24 GB GDDR6 (768 GB/s), 230 W, 6 MB L2. No base clock
/// published.
inline constexpr device_spec rtx_a5000{.id = "rtx-a5000",
                                       .name = "NVIDIA RTX A5000",
                                       .peak_fp32_flops_per_s = 27.8e12,
                                       .peak_tf32_tensor_flops_per_s = 55.6e12,
                                       .peak_fp16_tensor_flops_per_s = 111.1e12,
                                       .peak_bf16_tensor_flops_per_s = 111.1e12,
                                       .memory_bandwidth_bytes_per_s = 768e9,
                                       .memory = 24_GiB,
                                       .sm_count = 64,
                                       .cores_per_sm = 128,
                                       .boost_clock_mhz = 1695,
                                       .tdp_watts = 230,
                                       .l2 = 6_MiB};

/// NVIDIA RTX A5500 (GA102), data sheet: 10240 cores = 80 SMs x 128, 34.1 TFLOPS FP32 (1665 MHz boost), 272.8 TFLOPS
/// tensor with sparsity (136.4 dense, full rate; TF32 68.2), 24 GB GDDR6 (768 GB/s), 230 W, 6 MB L2. No base clock
/// published.
inline constexpr device_spec rtx_a5500{.id = "rtx-a5500",
                                       .name = "NVIDIA RTX A5500",
                                       .peak_fp32_flops_per_s = 34.1e12,
                                       .peak_tf32_tensor_flops_per_s = 68.2e12,
                                       .peak_fp16_tensor_flops_per_s = 136.4e12,
                                       .peak_bf16_tensor_flops_per_s = 136.4e12,
                                       .memory_bandwidth_bytes_per_s = 768e9,
                                       .memory = 24_GiB,
                                       .sm_count = 80,
                                       .cores_per_sm = 128,
                                       .boost_clock_mhz = 1665,
                                       .tdp_watts = 230,
                                       .l2 = 6_MiB};

/// NVIDIA RTX A6000 (GA102), data sheet: 10752 cores = 84 SMs x 128, 38.7 TFLOPS FP32 (1800 MHz boost), 309.7 TFLOPS
/// tensor with sparsity (154.8 dense, full rate; TF32 77.4), 48 GB GDDR6 (768 GB/s), 300 W, 6 MB L2. No base clock
/// published.
inline constexpr device_spec rtx_a6000{.id = "rtx-a6000",
                                       .name = "NVIDIA RTX A6000",
                                       .peak_fp32_flops_per_s = 38.7e12,
                                       .peak_tf32_tensor_flops_per_s = 77.4e12,
                                       .peak_fp16_tensor_flops_per_s = 154.8e12,
                                       .peak_bf16_tensor_flops_per_s = 154.8e12,
                                       .memory_bandwidth_bytes_per_s = 768e9,
                                       .memory = 48_GiB,
                                       .sm_count = 84,
                                       .cores_per_sm = 128,
                                       .boost_clock_mhz = 1800,
                                       .tdp_watts = 300,
                                       .l2 = 6_MiB};

// --- Ada Lovelace -------------------------------------------------------------------------------------------------

/// NVIDIA L4 (AD104), data sheet: 7424 cores = 58 SMs x 128, 30.3 TFLOPS FP32, 120 / 242 / 485 TFLOPS TF32 /
/// FP16 and BF16 / FP8 tensor with sparsity (60 / 121 / 242.5 dense; data-centre part, full rate), 300 GB/s, 72 W;
/// product brief: 795 MHz base, 2040 MHz boost.
inline constexpr device_spec l4{.id = "l4",
                                .name = "NVIDIA L4",
                                .peak_fp32_flops_per_s = 30.3e12,
                                .peak_tf32_tensor_flops_per_s = 60e12,
                                .peak_fp16_tensor_flops_per_s = 121e12,
                                .peak_bf16_tensor_flops_per_s = 121e12,
                                .peak_fp8_tensor_flops_per_s = 242.5e12,
                                .memory_bandwidth_bytes_per_s = 300e9,
                                .memory = 24_GiB,
                                .sm_count = 58,
                                .cores_per_sm = 128,
                                .boost_clock_mhz = 2040,
                                .base_clock_mhz = 795,
                                .tdp_watts = 72,
                                .l2 = 48_MiB,
                                .gddr_ecc_on_by_default = true};

/// NVIDIA L40 (AD102), data sheet: 18176 cores = 142 SMs x 128, 90.5 TFLOPS FP32; dense tensor 90.5 TF32, 181.05
/// FP16/BF16, 362 FP8 TFLOPS (181 / 362.1 / 724 with sparsity: the L40's data sheet gives FP32-accumulate tensor math
/// half the L40S's rate per SM-clock), 48 GB GDDR6 at 864 GB/s, 300 W; product brief: 735 MHz base, 2490 MHz boost; 96
/// MB L2.
inline constexpr device_spec l40{.id = "l40",
                                 .name = "NVIDIA L40",
                                 .peak_fp32_flops_per_s = 90.5e12,
                                 .peak_tf32_tensor_flops_per_s = 90.5e12,
                                 .peak_fp16_tensor_flops_per_s = 181.05e12,
                                 .peak_bf16_tensor_flops_per_s = 181.05e12,
                                 .peak_fp8_tensor_flops_per_s = 362e12,
                                 .memory_bandwidth_bytes_per_s = 864e9,
                                 .memory = 48_GiB,
                                 .sm_count = 142,
                                 .cores_per_sm = 128,
                                 .boost_clock_mhz = 2490,
                                 .base_clock_mhz = 735,
                                 .tdp_watts = 300,
                                 .l2 = 96_MiB,
                                 .gddr_ecc_on_by_default = true};

/// NVIDIA L40S (AD102), data sheet: 18176 cores = 142 SMs x 128, 91.6 TFLOPS FP32; dense tensor 183 TF32, 362.05
/// FP16/BF16, 733 FP8 TFLOPS (366 / 733 / 1466 with sparsity; full rate), 48 GB GDDR6 at 864 GB/s, 350 W; product
/// brief: 1110 MHz base, 2520 MHz boost; 96 MB L2.
inline constexpr device_spec l40s{.id = "l40s",
                                  .name = "NVIDIA L40S",
                                  .peak_fp32_flops_per_s = 91.6e12,
                                  .peak_tf32_tensor_flops_per_s = 183e12,
                                  .peak_fp16_tensor_flops_per_s = 362.05e12,
                                  .peak_bf16_tensor_flops_per_s = 362.05e12,
                                  .peak_fp8_tensor_flops_per_s = 733e12,
                                  .memory_bandwidth_bytes_per_s = 864e9,
                                  .memory = 48_GiB,
                                  .sm_count = 142,
                                  .cores_per_sm = 128,
                                  .boost_clock_mhz = 2520,
                                  .base_clock_mhz = 1110,
                                  .tdp_watts = 350,
                                  .l2 = 96_MiB,
                                  .gddr_ecc_on_by_default = true};

/// GeForce RTX 4080 16 GB (AD103), NVIDIA Ada whitepaper: 9728 cores = 76 SMs x 128, 2205 MHz base, 2505 MHz boost,
/// 48.7 TFLOPS FP32; tensor dense with FP32 accumulate (GeForce: half rate): 48.7 TF32, 97.5 FP16/BF16 (194.9 with FP16
/// accumulate), 194.9 FP8; 16 GB GDDR6X at 22.4 Gbps on 256 bits (716.8 GB/s), 320 W, 64 MB L2.
inline constexpr device_spec rtx4080{.id = "rtx4080",
                                     .name = "NVIDIA GeForce RTX 4080",
                                     .peak_fp32_flops_per_s = 48.7e12,
                                     .peak_tf32_tensor_flops_per_s = 48.7e12,
                                     .peak_fp16_tensor_flops_per_s = 97.5e12,
                                     .peak_bf16_tensor_flops_per_s = 97.5e12,
                                     .peak_fp8_tensor_flops_per_s = 194.9e12,
                                     .memory_bandwidth_bytes_per_s = 716.8e9,
                                     .memory = 16_GiB,
                                     .sm_count = 76,
                                     .cores_per_sm = 128,
                                     .boost_clock_mhz = 2505,
                                     .base_clock_mhz = 2205,
                                     .tdp_watts = 320,
                                     .l2 = 64_MiB};

/// GeForce RTX 4090 (AD102), NVIDIA Ada whitepaper: 128 SMs x 128, 2235 MHz base, 2520 MHz boost, 82.6 TFLOPS FP32,
/// 450 W; tensor dense with FP32 accumulate (GeForce: half the FP16-accumulate rate): 82.6 TF32, 165.2 FP16/BF16
/// (330.3 with FP16 accumulate), 330.3 FP8 (660.6 with FP16 accumulate); 1008 GB/s.
inline constexpr device_spec rtx4090{.id = "rtx4090",
                                     .name = "NVIDIA GeForce RTX 4090",
                                     .peak_fp32_flops_per_s = 82.6e12,
                                     .peak_tf32_tensor_flops_per_s = 82.6e12,
                                     .peak_fp16_tensor_flops_per_s = 165.2e12,
                                     .peak_bf16_tensor_flops_per_s = 165.2e12,
                                     .peak_fp8_tensor_flops_per_s = 330.3e12,
                                     .memory_bandwidth_bytes_per_s = 1008e9,
                                     .memory = 24_GiB,
                                     .sm_count = 128,
                                     .cores_per_sm = 128,
                                     .boost_clock_mhz = 2520,
                                     .base_clock_mhz = 2235,
                                     .tdp_watts = 450,
                                     .l2 = 72_MiB};

/// NVIDIA RTX 6000 Ada Generation (AD102), data sheet: 18176 cores = 142 SMs x 128, 91.1 TFLOPS FP32 (2505 MHz boost),
/// 1457 TFLOPS FP8 tensor with sparsity (728.5 dense; a workstation part: FP32 accumulate at full rate, so 364.25
/// FP16/BF16 and 182.1 TF32 dense), 48 GB GDDR6 at 960 GB/s, 300 W, 96 MB L2. No base clock published.
inline constexpr device_spec rtx6000_ada{.id = "rtx6000-ada",
                                         .name = "NVIDIA RTX 6000 Ada Generation",
                                         .peak_fp32_flops_per_s = 91.1e12,
                                         .peak_tf32_tensor_flops_per_s = 182.1e12,
                                         .peak_fp16_tensor_flops_per_s = 364.25e12,
                                         .peak_bf16_tensor_flops_per_s = 364.25e12,
                                         .peak_fp8_tensor_flops_per_s = 728.5e12,
                                         .memory_bandwidth_bytes_per_s = 960e9,
                                         .memory = 48_GiB,
                                         .sm_count = 142,
                                         .cores_per_sm = 128,
                                         .boost_clock_mhz = 2505,
                                         .tdp_watts = 300,
                                         .l2 = 96_MiB};

// The RTX Ada workstation parts below share one rate per SM and clock: 1024 dense FP16/BF16 tensor FLOPs with FP32
// accumulate (full rate, as the RTX 6000 Ada: 364.25 TFLOPS on 142 SMs at 2505 MHz), half that in TF32, twice in
// FP8; each data sheet's "tensor performance" is the FP8 figure with sparsity, 16x its FP32 peak. Their GDDR6 ECC is
// off by default (nvidia-smi reports the whole memory). Clocks and L2 are not on the data sheets: TechPowerUp's GPU
// database.

/// NVIDIA RTX 2000 Ada Generation (AD107), data sheet: 2816 cores = 22 SMs x 128, 12.0 TFLOPS FP32, 191.9 TFLOPS
/// tensor (FP8 sparse: 24.0 / 48.0 / 95.9 dense TF32 / FP16 and BF16 / FP8), 16 GB GDDR6 on 128 bits (224 GB/s), 70 W.
/// 2130 MHz boost, 1620 MHz base, 12 MB L2.
inline constexpr device_spec rtx2000_ada{.id = "rtx2000-ada",
                                         .name = "NVIDIA RTX 2000 Ada Generation",
                                         .peak_fp32_flops_per_s = 12.0e12,
                                         .peak_tf32_tensor_flops_per_s = 24.0e12,
                                         .peak_fp16_tensor_flops_per_s = 47.98e12,
                                         .peak_bf16_tensor_flops_per_s = 47.98e12,
                                         .peak_fp8_tensor_flops_per_s = 95.95e12,
                                         .memory_bandwidth_bytes_per_s = 224e9,
                                         .memory = 16_GiB,
                                         .sm_count = 22,
                                         .cores_per_sm = 128,
                                         .boost_clock_mhz = 2130,
                                         .base_clock_mhz = 1620,
                                         .tdp_watts = 70,
                                         .l2 = 12_MiB};

/// NVIDIA RTX 4000 Ada Generation (AD104, single slot), data sheet: 6144 cores = 48 SMs x 128, 26.7 TFLOPS FP32, 20 GB
/// GDDR6 on 160 bits (360 GB/s), 130 W; 2175 MHz boost, 1500 MHz base, 48 MB L2. Its data sheet prints 327.6 TFLOPS
/// tensor, where 48 SMs x 1024 x 4 (sparse FP8) x 2175 MHz is 427.6, one digit off, and every other Ada data sheet's
/// figure is that product (16x FP32): 53.45 / 106.9 / 213.8 dense TF32 / FP16 and BF16 / FP8.
inline constexpr device_spec rtx4000_ada{.id = "rtx4000-ada",
                                         .name = "NVIDIA RTX 4000 Ada Generation",
                                         .peak_fp32_flops_per_s = 26.7e12,
                                         .peak_tf32_tensor_flops_per_s = 53.45e12,
                                         .peak_fp16_tensor_flops_per_s = 106.9e12,
                                         .peak_bf16_tensor_flops_per_s = 106.9e12,
                                         .peak_fp8_tensor_flops_per_s = 213.8e12,
                                         .memory_bandwidth_bytes_per_s = 360e9,
                                         .memory = 20_GiB,
                                         .sm_count = 48,
                                         .cores_per_sm = 128,
                                         .boost_clock_mhz = 2175,
                                         .base_clock_mhz = 1500,
                                         .tdp_watts = 130,
                                         .l2 = 48_MiB};

/// NVIDIA RTX 4500 Ada Generation, data sheet: 7680 cores = 60 SMs x 128, 39.6 TFLOPS FP32, 634 TFLOPS tensor (79.25 /
/// 158.5 / 317 dense TF32 / FP16 and BF16 / FP8), 24 GB GDDR6 on 192 bits (432 GB/s), 210 W; 2580 MHz boost, 2070 MHz
/// base, 48 MB L2.
inline constexpr device_spec rtx4500_ada{.id = "rtx4500-ada",
                                         .name = "NVIDIA RTX 4500 Ada Generation",
                                         .peak_fp32_flops_per_s = 39.6e12,
                                         .peak_tf32_tensor_flops_per_s = 79.25e12,
                                         .peak_fp16_tensor_flops_per_s = 158.5e12,
                                         .peak_bf16_tensor_flops_per_s = 158.5e12,
                                         .peak_fp8_tensor_flops_per_s = 317e12,
                                         .memory_bandwidth_bytes_per_s = 432e9,
                                         .memory = 24_GiB,
                                         .sm_count = 60,
                                         .cores_per_sm = 128,
                                         .boost_clock_mhz = 2580,
                                         .base_clock_mhz = 2070,
                                         .tdp_watts = 210,
                                         .l2 = 48_MiB};

/// NVIDIA RTX 5000 Ada Generation (AD102), data sheet: 12800 cores = 100 SMs x 128, 65.3 TFLOPS FP32, 1044.4 TFLOPS
/// tensor (130.55 / 261.1 / 522.2 dense TF32 / FP16 and BF16 / FP8), 32 GB GDDR6 on 256 bits (576 GB/s), 250 W;
/// 2550 MHz boost, 1155 MHz base, 72 MB L2.
inline constexpr device_spec rtx5000_ada{.id = "rtx5000-ada",
                                         .name = "NVIDIA RTX 5000 Ada Generation",
                                         .peak_fp32_flops_per_s = 65.3e12,
                                         .peak_tf32_tensor_flops_per_s = 130.55e12,
                                         .peak_fp16_tensor_flops_per_s = 261.1e12,
                                         .peak_bf16_tensor_flops_per_s = 261.1e12,
                                         .peak_fp8_tensor_flops_per_s = 522.2e12,
                                         .memory_bandwidth_bytes_per_s = 576e9,
                                         .memory = 32_GiB,
                                         .sm_count = 100,
                                         .cores_per_sm = 128,
                                         .boost_clock_mhz = 2550,
                                         .base_clock_mhz = 1155,
                                         .tdp_watts = 250,
                                         .l2 = 72_MiB};

// --- Hopper -------------------------------------------------------------------------------------------------------

/// NVIDIA H100 SXM5 80 GB HBM3, data sheet: 67 TFLOPS FP32 (132 SMs x 128 at 1980 MHz), 989 / 1979 / 3958 TFLOPS
/// TF32 / FP16 and BF16 / FP8 tensor with sparsity (494.5 / 989.5 / 1979 dense), 3.35 TB/s, up to 700 W. No NVIDIA
/// document gives an SXM5 base clock.
inline constexpr device_spec h100{.id = "h100",
                                  .name = "NVIDIA H100 80GB HBM3",
                                  .peak_fp32_flops_per_s = 67e12,
                                  .peak_tf32_tensor_flops_per_s = 494.5e12,
                                  .peak_fp16_tensor_flops_per_s = 989.5e12,
                                  .peak_bf16_tensor_flops_per_s = 989.5e12,
                                  .peak_fp8_tensor_flops_per_s = 1979e12,
                                  .memory_bandwidth_bytes_per_s = 3.35e12,
                                  .memory = 80_GiB,
                                  .sm_count = 132,
                                  .cores_per_sm = 128,
                                  .boost_clock_mhz = 1980,
                                  .tdp_watts = 700,
                                  .l2 = 50_MiB};

/// NVIDIA H100 PCIe 80 GB, data sheet and product brief PB-11133: 14592 cores = 114 SMs x 128, 1755 MHz boost, 51
/// TFLOPS FP32; 756 / 1513 / 3026 TFLOPS TF32 / FP16 and BF16 / FP8 tensor with sparsity (378 / 756.5 / 1513 dense), 80
/// GB HBM2e at 2 TB/s, 350 W, 50 MB L2. The base clock is left 0 (not confirmed from an NVIDIA document).
inline constexpr device_spec h100_pcie{.id = "h100-pcie",
                                       .name = "NVIDIA H100 PCIe",
                                       .peak_fp32_flops_per_s = 51e12,
                                       .peak_tf32_tensor_flops_per_s = 378e12,
                                       .peak_fp16_tensor_flops_per_s = 756.5e12,
                                       .peak_bf16_tensor_flops_per_s = 756.5e12,
                                       .peak_fp8_tensor_flops_per_s = 1513e12,
                                       .memory_bandwidth_bytes_per_s = 2.0e12,
                                       .memory = 80_GiB,
                                       .sm_count = 114,
                                       .cores_per_sm = 128,
                                       .boost_clock_mhz = 1755,
                                       .tdp_watts = 350,
                                       .l2 = 50_MiB};

/// NVIDIA H100 NVL (one GPU; the data sheet's per-GPU figures): 132 SMs x 128, 60 TFLOPS FP32 (1785 MHz boost), 835 /
/// 1671 / 3341 TFLOPS TF32 / FP16 and BF16 / FP8 tensor with sparsity (417.5 / 835.5 / 1670.5 dense), 94 GB HBM3 at 3.9
/// TB/s, 350-400 W configurable (400 here), 50 MB L2. No base clock published.
inline constexpr device_spec h100_nvl{.id = "h100-nvl",
                                      .name = "NVIDIA H100 NVL",
                                      .peak_fp32_flops_per_s = 60e12,
                                      .peak_tf32_tensor_flops_per_s = 417.5e12,
                                      .peak_fp16_tensor_flops_per_s = 835.5e12,
                                      .peak_bf16_tensor_flops_per_s = 835.5e12,
                                      .peak_fp8_tensor_flops_per_s = 1670.5e12,
                                      .memory_bandwidth_bytes_per_s = 3.9e12,
                                      .memory = 94_GiB,
                                      .sm_count = 132,
                                      .cores_per_sm = 128,
                                      .boost_clock_mhz = 1785,
                                      .tdp_watts = 400,
                                      .l2 = 50_MiB};

/// NVIDIA H200 SXM 141 GB, data sheet: the H100 SXM's compute (67 FP32; 494.5 / 989.5 / 1979 dense TF32 / FP16 and
/// BF16 / FP8 TFLOPS) with 4.8 TB/s of HBM3e, up to 700 W. No base clock published.
inline constexpr device_spec h200{.id = "h200",
                                  .name = "NVIDIA H200",
                                  .peak_fp32_flops_per_s = 67e12,
                                  .peak_tf32_tensor_flops_per_s = 494.5e12,
                                  .peak_fp16_tensor_flops_per_s = 989.5e12,
                                  .peak_bf16_tensor_flops_per_s = 989.5e12,
                                  .peak_fp8_tensor_flops_per_s = 1979e12,
                                  .memory_bandwidth_bytes_per_s = 4.8e12,
                                  .memory = 141_GiB,
                                  .sm_count = 132,
                                  .cores_per_sm = 128,
                                  .boost_clock_mhz = 1980,
                                  .tdp_watts = 700,
                                  .l2 = 50_MiB};

/// NVIDIA H200 NVL (the H200 data sheet's NVL column, one PCIe card): the H100 NVL's compute (60 TFLOPS FP32; 835 /
/// 1671 / 3341 TFLOPS TF32 / FP16 and BF16 / FP8 tensor with sparsity, 417.5 / 835.5 / 1670.5 dense) on 132 SMs x 128
/// at the 1785 MHz those figures give, with the H200's 141 GB of HBM3e at 4.8 TB/s; up to 600 W configurable (600
/// here), 50 MB L2. No base clock published.
inline constexpr device_spec h200_nvl{.id = "h200-nvl",
                                      .name = "NVIDIA H200 NVL",
                                      .peak_fp32_flops_per_s = 60e12,
                                      .peak_tf32_tensor_flops_per_s = 417.5e12,
                                      .peak_fp16_tensor_flops_per_s = 835.5e12,
                                      .peak_bf16_tensor_flops_per_s = 835.5e12,
                                      .peak_fp8_tensor_flops_per_s = 1670.5e12,
                                      .memory_bandwidth_bytes_per_s = 4.8e12,
                                      .memory = 141_GiB,
                                      .sm_count = 132,
                                      .cores_per_sm = 128,
                                      .boost_clock_mhz = 1785,
                                      .tdp_watts = 600,
                                      .l2 = 50_MiB};

/// The Hopper GPU of the NVIDIA GH200 Grace Hopper Superchip with 96 GB HBM3 (data sheet: 67 TFLOPS FP32, 989 / 1979 /
/// 3958 TFLOPS TF32 / FP16 and BF16 / FP8 tensor with sparsity, so 494.5 / 989.5 / 1979 dense; 4 TB/s), 132 SMs x 128
/// at 1980 MHz as the H100 SXM, 50 MB L2. The module's power is configurable from 450 to 1000 W and covers the Grace
/// CPU and its LPDDR5X too: tdp is the 1000 W maximum. The 144 GB HBM3e variant (4.9 TB/s) is not a separate entry.
inline constexpr device_spec gh200{.id = "gh200",
                                   .name = "NVIDIA GH200 480GB",
                                   .peak_fp32_flops_per_s = 67e12,
                                   .peak_tf32_tensor_flops_per_s = 494.5e12,
                                   .peak_fp16_tensor_flops_per_s = 989.5e12,
                                   .peak_bf16_tensor_flops_per_s = 989.5e12,
                                   .peak_fp8_tensor_flops_per_s = 1979e12,
                                   .memory_bandwidth_bytes_per_s = 4.0e12,
                                   .memory = 96_GiB,
                                   .sm_count = 132,
                                   .cores_per_sm = 128,
                                   .boost_clock_mhz = 1980,
                                   .tdp_watts = 1000,
                                   .l2 = 50_MiB};

// --- Blackwell ----------------------------------------------------------------------------------------------------

/// NVIDIA B200 (HGX B200 data sheet, per GPU): 75 TFLOPS FP32; 2.2 / 4.5 / 9 PFLOPS TF32 / FP16 and BF16 / FP8 tensor
/// with sparsity (1.1 / 2.25 / 4.5 dense); 180 GB HBM3e at 7.7 TB/s; up to 1000 W. NVIDIA publishes neither SM count
/// nor clocks nor L2: 148 SMs x 128 and 126 MB of L2 are what the CUDA driver reports (Chips and Cheese, "Nvidia's
/// B200"), and 75 TFLOPS / (2 x 18944 lanes) gives the 1980 MHz boost.
inline constexpr device_spec b200{.id = "b200",
                                  .name = "NVIDIA B200",
                                  .peak_fp32_flops_per_s = 75e12,
                                  .peak_tf32_tensor_flops_per_s = 1100e12,
                                  .peak_fp16_tensor_flops_per_s = 2250e12,
                                  .peak_bf16_tensor_flops_per_s = 2250e12,
                                  .peak_fp8_tensor_flops_per_s = 4500e12,
                                  .memory_bandwidth_bytes_per_s = 7.7e12,
                                  .memory = 180_GiB,
                                  .sm_count = 148,
                                  .cores_per_sm = 128,
                                  .boost_clock_mhz = 1980,
                                  .tdp_watts = 1000,
                                  .l2 = 126_MiB};

/// One Blackwell GPU of an NVIDIA GB200 Grace Blackwell Superchip (GB200 NVL72 data sheet, "individual Blackwell GPU"
/// column): 80 TFLOPS FP32; 2.5 / 5 / 10 PFLOPS TF32 / FP16 and BF16 / FP8 tensor with sparsity (1.25 / 2.5 / 5
/// dense); 186 GB HBM3e at 8 TB/s; configurable up to 1200 W. The B200's die (148 SMs x 128, 126 MB of L2, as its
/// driver reports them) at a higher power limit: 80 TFLOPS / (2 x 18944 lanes) gives a 2112 MHz boost.
inline constexpr device_spec gb200{.id = "gb200",
                                   .name = "NVIDIA GB200",
                                   .peak_fp32_flops_per_s = 80e12,
                                   .peak_tf32_tensor_flops_per_s = 1250e12,
                                   .peak_fp16_tensor_flops_per_s = 2500e12,
                                   .peak_bf16_tensor_flops_per_s = 2500e12,
                                   .peak_fp8_tensor_flops_per_s = 5000e12,
                                   .memory_bandwidth_bytes_per_s = 8e12,
                                   .memory = 186_GiB,
                                   .sm_count = 148,
                                   .cores_per_sm = 128,
                                   .boost_clock_mhz = 2112,
                                   .tdp_watts = 1200,
                                   .l2 = 126_MiB};

/// NVIDIA B300 (Blackwell Ultra; HGX B300 data sheet, per GPU of eight): 75 TFLOPS FP32; 2.25 / 4.5 / 9 PFLOPS TF32 /
/// FP16 and BF16 / FP8 tensor with sparsity (TF32 as the B200's 1.1 dense, 2.25 / 4.5 dense), dense FP4 raised to
/// 13.5 PFLOPS (not modelled); 288 GB HBM3e, 7.7 TB/s and 1100 W as NVIDIA's DGX B300 reference gives them (HGX pages
/// say "up to 8 TB/s"). Neither SM count nor clocks nor L2 are published: the CUDA driver reports 148 SMs, 126 MB of
/// L2 and 275,040 MiB of memory (the memory here: the data sheet's 288 GB less what the driver keeps), and 75 TFLOPS /
/// (2 x 18944 lanes) gives the 1980 MHz boost, as the B200's.
inline constexpr device_spec b300{.id = "b300",
                                  .name = "NVIDIA B300 SXM6 AC",
                                  .peak_fp32_flops_per_s = 75e12,
                                  .peak_tf32_tensor_flops_per_s = 1100e12,
                                  .peak_fp16_tensor_flops_per_s = 2250e12,
                                  .peak_bf16_tensor_flops_per_s = 2250e12,
                                  .peak_fp8_tensor_flops_per_s = 4500e12,
                                  .memory_bandwidth_bytes_per_s = 7.7e12,
                                  .memory = 275'040_MiB,
                                  .sm_count = 148,
                                  .cores_per_sm = 128,
                                  .boost_clock_mhz = 1980,
                                  .tdp_watts = 1100,
                                  .l2 = 126_MiB};

/// GeForce RTX 5090 (GB202), NVIDIA RTX Blackwell GPU architecture whitepaper: 21760 cores = 170 SMs x 128, 2017 MHz
/// base, 2407 MHz boost, 104.8 TFLOPS FP32; tensor dense with FP32 accumulate (GeForce: half rate): 104.8 TF32, 209.5
/// FP16/BF16 (419 with FP16 accumulate), 419 FP8 (838 with FP16 accumulate); 32 GB GDDR7 at 28 Gbps on 512 bits (1792
/// GB/s), 575 W, 96 MB L2.
inline constexpr device_spec rtx5090{.id = "rtx5090",
                                     .name = "NVIDIA GeForce RTX 5090",
                                     .peak_fp32_flops_per_s = 104.8e12,
                                     .peak_tf32_tensor_flops_per_s = 104.8e12,
                                     .peak_fp16_tensor_flops_per_s = 209.5e12,
                                     .peak_bf16_tensor_flops_per_s = 209.5e12,
                                     .peak_fp8_tensor_flops_per_s = 419e12,
                                     .memory_bandwidth_bytes_per_s = 1792e9,
                                     .memory = 32_GiB,
                                     .sm_count = 170,
                                     .cores_per_sm = 128,
                                     .boost_clock_mhz = 2407,
                                     .base_clock_mhz = 2017,
                                     .tdp_watts = 575,
                                     .l2 = 96_MiB};

/// NVIDIA RTX PRO 4500 Blackwell (GB203), data sheet: 10496 cores = 82 SMs x 128, 1687 AI TOPS (FP4 with sparsity, 8x
/// the dense FP16 rate: 105.4 / 210.9 / 421.8 dense TF32 / FP16 and BF16 / FP8 with FP32 accumulate at full rate, as
/// the RTX PRO 6000), 32 GB GDDR7 on 256 bits (896 GB/s), 200 W; 2617 MHz boost and 1590 MHz base (54.9 TFLOPS FP32)
/// and 64 MB L2 from TechPowerUp's GPU database. The Server Edition (800 GB/s, 165 W) is another part.
inline constexpr device_spec rtx_pro_4500{.id = "rtx-pro-4500",
                                          .name = "NVIDIA RTX PRO 4500 Blackwell",
                                          .peak_fp32_flops_per_s = 54.9e12,
                                          .peak_tf32_tensor_flops_per_s = 105.4e12,
                                          .peak_fp16_tensor_flops_per_s = 210.9e12,
                                          .peak_bf16_tensor_flops_per_s = 210.9e12,
                                          .peak_fp8_tensor_flops_per_s = 421.8e12,
                                          .memory_bandwidth_bytes_per_s = 896e9,
                                          .memory = 32_GiB,
                                          .sm_count = 82,
                                          .cores_per_sm = 128,
                                          .boost_clock_mhz = 2617,
                                          .base_clock_mhz = 1590,
                                          .tdp_watts = 200,
                                          .l2 = 64_MiB};

/// NVIDIA RTX PRO 5000 Blackwell (GB202) with 48 GB, data sheet: 14080 cores = 110 SMs x 128, 65 TFLOPS FP32 (a 2308
/// MHz boost), 2064 AI TOPS (FP4 sparse: 129 / 258 / 516 dense TF32 / FP16 and BF16 / FP8), 48 GB GDDR7 at 1344 GB/s,
/// 300 W; 96 MB L2 (TechPowerUp). No base clock published. The 72 GB part (same GPU and rates) is not an entry: a
/// device file with its memory predicts it (docs/devices.md).
inline constexpr device_spec rtx_pro_5000{.id = "rtx-pro-5000",
                                          .name = "NVIDIA RTX PRO 5000 Blackwell",
                                          .peak_fp32_flops_per_s = 65e12,
                                          .peak_tf32_tensor_flops_per_s = 129e12,
                                          .peak_fp16_tensor_flops_per_s = 258e12,
                                          .peak_bf16_tensor_flops_per_s = 258e12,
                                          .peak_fp8_tensor_flops_per_s = 516e12,
                                          .memory_bandwidth_bytes_per_s = 1344e9,
                                          .memory = 48_GiB,
                                          .sm_count = 110,
                                          .cores_per_sm = 128,
                                          .boost_clock_mhz = 2308,
                                          .tdp_watts = 300,
                                          .l2 = 96_MiB};

/// NVIDIA RTX PRO 6000 Blackwell Workstation Edition (GB202), data sheet: 24064 cores = 188 SMs x 128, 125 TFLOPS FP32,
/// 4000 AI TOPS (FP4 with sparsity), 96 GB GDDR7 at 1792 GB/s, 600 W, 128 MB L2. Dense tensor rates at the 2617 MHz
/// boost with the RTX Blackwell whitepaper's per-SM rates, FP32 accumulate at full rate (workstation part): 251.9 TF32,
/// 503.8 FP16/BF16, 1007.6 FP8 (2015 FP4 dense = the data sheet's 4000 sparse). No base clock published.
inline constexpr device_spec rtx_pro_6000{.id = "rtx-pro-6000",
                                          .name = "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
                                          .peak_fp32_flops_per_s = 125e12,
                                          .peak_tf32_tensor_flops_per_s = 251.9e12,
                                          .peak_fp16_tensor_flops_per_s = 503.8e12,
                                          .peak_bf16_tensor_flops_per_s = 503.8e12,
                                          .peak_fp8_tensor_flops_per_s = 1007.6e12,
                                          .memory_bandwidth_bytes_per_s = 1792e9,
                                          .memory = 96_GiB,
                                          .sm_count = 188,
                                          .cores_per_sm = 128,
                                          .boost_clock_mhz = 2617,
                                          .tdp_watts = 600,
                                          .l2 = 128_MiB};

/// NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition: the same GB202 (188 SMs x 128, 96 GB GDDR7 at 1792 GB/s,
/// 128 MB L2) at 300 W; data sheet: 110 TFLOPS FP32 and 3511 AI TOPS (FP4 sparse), i.e. a 2280 MHz boost; dense tensor
/// at full rate: 219.4 TF32, 438.9 FP16/BF16, 877.8 FP8. No base clock published.
inline constexpr device_spec rtx_pro_6000_maxq{.id = "rtx-pro-6000-maxq",
                                               .name = "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
                                               .peak_fp32_flops_per_s = 110e12,
                                               .peak_tf32_tensor_flops_per_s = 219.4e12,
                                               .peak_fp16_tensor_flops_per_s = 438.9e12,
                                               .peak_bf16_tensor_flops_per_s = 438.9e12,
                                               .peak_fp8_tensor_flops_per_s = 877.8e12,
                                               .memory_bandwidth_bytes_per_s = 1792e9,
                                               .memory = 96_GiB,
                                               .sm_count = 188,
                                               .cores_per_sm = 128,
                                               .boost_clock_mhz = 2280,
                                               .tdp_watts = 300,
                                               .l2 = 128_MiB};

/// NVIDIA RTX PRO 6000 Blackwell Server Edition: the Workstation Edition's GB202 (188 SMs x 128, 96 GB GDDR7, 128 MB
/// L2), passively cooled, configurable up to 600 W; data sheet: 120 TFLOPS FP32 (a 2493 MHz boost) and 1597 GB/s. Its
/// data sheet gives no dense tensor rate: the Workstation Edition's per SM and clock at that boost, 240 / 480 / 960
/// TF32 / FP16 and BF16 / FP8. No base clock published.
inline constexpr device_spec rtx_pro_6000_server{.id = "rtx-pro-6000-server",
                                                 .name = "NVIDIA RTX PRO 6000 Blackwell Server Edition",
                                                 .peak_fp32_flops_per_s = 120e12,
                                                 .peak_tf32_tensor_flops_per_s = 240e12,
                                                 .peak_fp16_tensor_flops_per_s = 480e12,
                                                 .peak_bf16_tensor_flops_per_s = 480e12,
                                                 .peak_fp8_tensor_flops_per_s = 960e12,
                                                 .memory_bandwidth_bytes_per_s = 1597e9,
                                                 .memory = 96_GiB,
                                                 .sm_count = 188,
                                                 .cores_per_sm = 128,
                                                 .boost_clock_mhz = 2493,
                                                 .tdp_watts = 600,
                                                 .l2 = 128_MiB};

// --- CPU ----------------------------------------------------------------------------------------------------------

/// The machine prenet's CPU layer models were measured on (data/cpu/, docs/bench.md): 2 vCPUs of an AMD EPYC
/// (Zen 4: AVX-512 on two 256-bit FMA pipes) at 2.6 GHz, 24 GB, 32 MiB L3. Peak: 16 FP32 lanes (`cores_per_sm`) x
/// 2 FLOPs per FMA x 2 cores x 2.6 GHz = 166 GFLOP/s. Bandwidth: what one LibTorch thread streams through an SGD
/// update (12 bytes per parameter), the median over the 9 largest single tensors prenet-bench measured (embedding
/// tables of 16-34M parameters, data/cpu/embedding.csv): 36 GB/s. Debian's LibTorch runs 1 intra-op thread here.
/// Another CPU gets these models' predictions only after its own bench (scripts/bench-cpu.sh). No tensor units, and
/// a VM slice has no published base clock or power limit: those fields are 0.
inline constexpr device_spec cpu{.id = "cpu",
                                 .name = "AMD EPYC (Zen 4), 2 vCPUs",
                                 .is_cpu = true,
                                 .peak_fp32_flops_per_s = 166.4e9,
                                 .memory_bandwidth_bytes_per_s = 36e9,
                                 .memory = bytes{25'276'502'016},
                                 .sm_count = 2,
                                 .cores_per_sm = 16,
                                 .boost_clock_mhz = 2600,
                                 .l2 = 32_MiB};

// --- Look-up ------------------------------------------------------------------------------------------------------

/// Every device, by architecture (oldest first), the CPU last.
inline constexpr std::array catalogue{
    // Kepler, Maxwell, Pascal
    k40, k80, m60, titan_x_maxwell, p4, p100, gtx1080, gtx1080ti, titan_x_pascal, titan_xp,
    // Volta
    v100, v100_sxm2, v100_sxm2_32gb, v100_sxm3_32gb, v100_sxm3_32gb_h, titan_v,
    // Turing
    t4, rtx2080ti, titan_rtx, quadro_rtx5000, quadro_rtx6000, quadro_rtx8000, rtx2070_maxq, rtx2080_maxq,
    rtx2080super_maxq,
    // Ampere
    a100_40gb, a100_80gb, a100_sxm4_40gb, a100_sxm4_80gb, a30, a10, a10g, a40, a16, a2, rtx3070, rtx3080, rtx3080ti,
    rtx3090, rtx3090ti, rtx3080_maxq, rtx_a2000, rtx_a4000, rtx_a4500, rtx_a5000, rtx_a5500, rtx_a6000,
    // Ada Lovelace
    l4, l40, l40s, rtx4080, rtx4090, rtx2000_ada, rtx4000_ada, rtx4500_ada, rtx5000_ada, rtx6000_ada,
    // Hopper
    h100, h100_pcie, h100_nvl, h200, h200_nvl, gh200,
    // Blackwell
    b200, gb200, b300, rtx5090, rtx_pro_4500, rtx_pro_5000, rtx_pro_6000, rtx_pro_6000_maxq, rtx_pro_6000_server,
    // host
    cpu,
};

/// Where an entry's numbers come from: its architecture and the document(s) they are read from, one per catalogue
/// entry in catalogue order (tests check both). `prenet devices --markdown` prints them beside the numbers, and
/// docs/devices.md carries that table.
struct device_source {
  std::string_view id;
  std::string_view architecture;
  std::string_view document;
};

inline constexpr std::array sources{
    device_source{"k40", "Kepler", "Tesla K40 board specification BD-06902"},
    device_source{"k80", "Kepler", "Tesla K80 board specification BD-07317 (per GPU: board halved)"},
    device_source{"m60", "Maxwell", "Tesla M60 data sheet (per GPU: board halved)"},
    device_source{"titan-x-maxwell", "Maxwell", "GeForce GTX TITAN X specifications (nvidia.com)"},
    device_source{"p4", "Pascal", "Tesla P4 data sheet and product brief"},
    device_source{"p100", "Pascal", "Tesla P100 PCIe data sheet and product brief"},
    device_source{"gtx1080", "Pascal", "GeForce GTX 1080 specifications (nvidia.com)"},
    device_source{"gtx1080ti", "Pascal", "GeForce GTX 1080 Ti specifications (nvidia.com)"},
    device_source{"titan-x-pascal", "Pascal", "NVIDIA TITAN X (Pascal) specifications (nvidia.com)"},
    device_source{"titan-xp", "Pascal", "NVIDIA TITAN Xp specifications (nvidia.com)"},
    device_source{"v100", "Volta", "Tesla V100 data sheet (PCIe); V100 PCIe product brief PB-08744"},
    device_source{"v100-sxm2", "Volta", "Tesla V100 data sheet (SXM2)"},
    device_source{"v100-sxm2-32gb", "Volta", "Tesla V100 data sheet (SXM2, 32 GB)"},
    device_source{"v100-sxm3-32gb", "Volta", "NVIDIA DGX-2 data sheet (per GPU)"},
    device_source{"v100-sxm3-32gb-h", "Volta",
                  "NVIDIA DGX-2H data sheet (per GPU; clock derived from the tensor peak)"},
    device_source{"titan-v", "Volta", "NVIDIA TITAN V specifications (nvidia.com)"},
    device_source{"t4", "Turing", "NVIDIA T4 data sheet and product brief"},
    device_source{"rtx2080ti", "Turing", "NVIDIA Turing GPU architecture whitepaper (reference card)"},
    device_source{"titan-rtx", "Turing", "NVIDIA TITAN RTX specifications (nvidia.com)"},
    device_source{"quadro-rtx5000", "Turing", "Quadro RTX 5000 data sheet"},
    device_source{"quadro-rtx6000", "Turing", "Quadro RTX 6000 data sheet; NVIDIA Turing GPU architecture whitepaper"},
    device_source{"quadro-rtx8000", "Turing", "Quadro RTX 8000 data sheet"},
    device_source{"rtx2070-maxq", "Turing",
                  "GeForce RTX 2070 laptop specifications (nvidia.com), 80 W Max-Q configuration"},
    device_source{"rtx2080-maxq", "Turing",
                  "GeForce RTX 2080 laptop specifications (nvidia.com), 80 W Max-Q configuration"},
    device_source{"rtx2080super-maxq", "Turing",
                  "GeForce RTX 2080 Super laptop specifications (nvidia.com), 80 W Max-Q configuration"},
    device_source{"a100-40gb", "Ampere", "NVIDIA A100 data sheet (PCIe 40 GB); A100 PCIe product brief"},
    device_source{"a100-80gb", "Ampere", "NVIDIA A100 data sheet (80 GB PCIe); A100 80GB PCIe product brief"},
    device_source{"a100-sxm4-40gb", "Ampere", "NVIDIA A100 data sheet (SXM4 40 GB)"},
    device_source{"a100-sxm4-80gb", "Ampere", "NVIDIA A100 data sheet (SXM4 80 GB)"},
    device_source{"a30", "Ampere", "NVIDIA A30 data sheet and product brief"},
    device_source{"a10", "Ampere", "NVIDIA A10 data sheet and product brief"},
    device_source{"a10g", "Ampere",
                  "no data sheet: nvidia-smi and Baseten, \"NVIDIA A10 vs A10G for ML model inference\""},
    device_source{"a40", "Ampere", "NVIDIA A40 data sheet and product brief"},
    device_source{"a16", "Ampere", "NVIDIA A16 data sheet and product brief (per GPU: board quartered)"},
    device_source{"a2", "Ampere", "NVIDIA A2 data sheet and product brief"},
    device_source{"rtx3070", "Ampere", "NVIDIA Ampere GA102 GPU architecture whitepaper (appendix)"},
    device_source{"rtx3080", "Ampere", "NVIDIA Ampere GA102 GPU architecture whitepaper"},
    device_source{"rtx3080ti", "Ampere", "GeForce RTX 3080 Ti specifications (nvidia.com)"},
    device_source{"rtx3090", "Ampere", "NVIDIA Ampere GA102 GPU architecture whitepaper"},
    device_source{"rtx3090ti", "Ampere", "GeForce RTX 3090 Ti specifications (nvidia.com)"},
    device_source{"rtx3080-maxq", "Ampere",
                  "GeForce RTX 3080 laptop specifications (nvidia.com), 80 W Max-Q configuration"},
    device_source{"rtx-a2000", "Ampere", "NVIDIA RTX A2000 data sheet"},
    device_source{"rtx-a4000", "Ampere", "NVIDIA RTX A4000 data sheet"},
    device_source{"rtx-a4500", "Ampere", "NVIDIA RTX A4500 data sheet"},
    device_source{"rtx-a5000", "Ampere", "NVIDIA RTX A5000 data sheet"},
    device_source{"rtx-a5500", "Ampere", "NVIDIA RTX A5500 data sheet"},
    device_source{"rtx-a6000", "Ampere", "NVIDIA RTX A6000 data sheet"},
    device_source{"l4", "Ada Lovelace", "NVIDIA L4 data sheet and product brief"},
    device_source{"l40", "Ada Lovelace", "NVIDIA L40 data sheet and product brief"},
    device_source{"l40s", "Ada Lovelace", "NVIDIA L40S data sheet and product brief"},
    device_source{"rtx4080", "Ada Lovelace", "NVIDIA Ada Lovelace GPU architecture whitepaper"},
    device_source{"rtx4090", "Ada Lovelace", "NVIDIA Ada Lovelace GPU architecture whitepaper"},
    device_source{"rtx2000-ada", "Ada Lovelace",
                  "NVIDIA RTX 2000 Ada Generation data sheet; clocks and L2: TechPowerUp GPU database"},
    device_source{"rtx4000-ada", "Ada Lovelace",
                  "NVIDIA RTX 4000 Ada Generation data sheet (its tensor figure read as 427.6, see devices.hpp); "
                  "clocks and L2: TechPowerUp GPU database"},
    device_source{"rtx4500-ada", "Ada Lovelace",
                  "NVIDIA RTX 4500 Ada Generation data sheet; clocks and L2: TechPowerUp GPU database"},
    device_source{"rtx5000-ada", "Ada Lovelace",
                  "NVIDIA RTX 5000 Ada Generation data sheet; clocks and L2: TechPowerUp GPU database"},
    device_source{"rtx6000-ada", "Ada Lovelace", "NVIDIA RTX 6000 Ada Generation data sheet"},
    device_source{"h100", "Hopper", "NVIDIA H100 Tensor Core GPU data sheet (SXM)"},
    device_source{"h100-pcie", "Hopper",
                  "NVIDIA H100 Tensor Core GPU data sheet (PCIe); H100 PCIe product brief PB-11133"},
    device_source{"h100-nvl", "Hopper", "NVIDIA H100 Tensor Core GPU data sheet (NVL, per GPU)"},
    device_source{"h200", "Hopper", "NVIDIA H200 Tensor Core GPU data sheet (SXM)"},
    device_source{"h200-nvl", "Hopper", "NVIDIA H200 Tensor Core GPU data sheet (NVL)"},
    device_source{"gh200", "Hopper", "NVIDIA GH200 Grace Hopper Superchip data sheet (96 GB HBM3)"},
    device_source{"b200", "Blackwell",
                  "NVIDIA HGX B200 data sheet (per GPU); SMs and L2 as the CUDA driver reports them"},
    device_source{"gb200", "Blackwell",
                  "NVIDIA GB200 NVL72 data sheet (per GPU); SMs and L2 as the B200's driver reports them"},
    device_source{"b300", "Blackwell",
                  "NVIDIA HGX B300 data sheet (per GPU); bandwidth and power: NVIDIA DGX B300 reference; SMs, L2 and "
                  "memory as the CUDA driver reports them"},
    device_source{"rtx5090", "Blackwell", "NVIDIA RTX Blackwell GPU architecture whitepaper"},
    device_source{"rtx-pro-4500", "Blackwell",
                  "NVIDIA RTX PRO 4500 Blackwell data sheet; clocks and L2: TechPowerUp GPU database"},
    device_source{"rtx-pro-5000", "Blackwell", "NVIDIA RTX PRO 5000 Blackwell data sheet; L2: TechPowerUp GPU database"},
    device_source{"rtx-pro-6000", "Blackwell", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition data sheet"},
    device_source{"rtx-pro-6000-maxq", "Blackwell",
                  "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition data sheet"},
    device_source{"rtx-pro-6000-server", "Blackwell",
                  "NVIDIA RTX PRO 6000 Blackwell Server Edition data sheet; tensor rates per SM and clock from the "
                  "RTX Blackwell whitepaper"},
    device_source{"cpu", "Zen 4 (CPU)",
                  "the bench machine: lscpu and /proc/cpuinfo; bandwidth measured by prenet-bench"},
};

/// The source of the entry with id `id`, or nullptr.
[[nodiscard]] constexpr const device_source* source_of(std::string_view id) noexcept {
  for (const device_source& s : sources) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

/// The entry whose id is `id` (exact, lower-case: "a100-40gb"), or nullptr. The pointer is into `catalogue`:
/// `static_assert(*devices::find("v100") == devices::v100);`.
[[nodiscard]] constexpr const device_spec* find(std::string_view id) noexcept {
  for (std::size_t i = 0; i < catalogue.size(); ++i) {
    if (catalogue[i].id == id) return catalogue.data() + i;
  }
  return nullptr;
}

/// Whether `id` is in the catalogue. Prefer it to `find(id) != nullptr` in a static_assert: g++ 12 with
/// -fsanitize=undefined does not treat comparing the address of a catalogue entry with nullptr as constant.
[[nodiscard]] constexpr bool contains(std::string_view id) noexcept {
  for (const device_spec& d : catalogue) {
    if (d.id == id) return true;
  }
  return false;
}

}  // namespace prenet::devices

namespace prenet::detail {

/// A device name as a dataset spells it, and the catalogue id it means.
struct dataset_device_name {
  std::string_view name;
  std::string_view id;
};

/// NeuSight's `Device` column and device_configs file names (underscores there match spaces here), and the
/// folder names of Justus et al. 2018, and every value of the `gpu` column of external/measurements.csv. Justus's
/// "V100" is AWS p3's V100-SXM2; its "M60" and "k80" are one GPU of the dual-GPU board (see docs/devices.md).
inline constexpr std::array dataset_device_names{
    dataset_device_name{"Tesla P4", "p4"},
    dataset_device_name{"Tesla P100-PCIE-16GB", "p100"},
    dataset_device_name{"Tesla T4", "t4"},
    dataset_device_name{"Tesla V100-PCIE-32GB", "v100"},
    dataset_device_name{"NVIDIA A100-PCIE-40GB", "a100-40gb"},
    dataset_device_name{"NVIDIA A100 80GB PCIe", "a100-80gb"},
    dataset_device_name{"NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb"},
    dataset_device_name{"NVIDIA H100 80GB HBM3", "h100"},
    dataset_device_name{"NVIDIA L4", "l4"},
    dataset_device_name{"1080ti", "gtx1080ti"},
    dataset_device_name{"K40", "k40"},
    dataset_device_name{"K80", "k80"},
    dataset_device_name{"M60", "m60"},
    dataset_device_name{"P100", "p100"},
    dataset_device_name{"V100", "v100-sxm2"},
    // ../shared/datasets/external/measurements.csv, column `gpu` (public benchmark suites; see docs/devices.md).
    dataset_device_name{"GTX 1080", "gtx1080"},
    dataset_device_name{"GTX 1080 Ti", "gtx1080ti"},
    dataset_device_name{"Maxwell Titan X", "titan-x-maxwell"},
    dataset_device_name{"Pascal Titan X", "titan-x-pascal"},
    dataset_device_name{"Titan Xp", "titan-xp"},
    dataset_device_name{"Titan V", "titan-v"},
    dataset_device_name{"V100-SXM2-16GB", "v100-sxm2"},
    dataset_device_name{"V100 16GB (AWS p3.2xlarge, SXM2)", "v100-sxm2"},
    dataset_device_name{"V100-SXM2-32GB", "v100-sxm2-32gb"},
    dataset_device_name{"V100-SXM3-32GB", "v100-sxm3-32gb"},
    dataset_device_name{"V100-SXM3-32GB-H (DGX-2H, 450W)", "v100-sxm3-32gb-h"},
    dataset_device_name{"T4", "t4"},
    dataset_device_name{"RTX 2080 Ti", "rtx2080ti"},
    dataset_device_name{"Titan RTX", "titan-rtx"},
    dataset_device_name{"Quadro RTX 5000", "quadro-rtx5000"},
    dataset_device_name{"Quadro RTX 6000", "quadro-rtx6000"},
    dataset_device_name{"Quadro RTX 8000", "quadro-rtx8000"},
    dataset_device_name{"RTX 2070 Max-Q (laptop)", "rtx2070-maxq"},
    dataset_device_name{"RTX 2080 Max-Q (laptop)", "rtx2080-maxq"},
    dataset_device_name{"RTX 2080 Super Max-Q (laptop)", "rtx2080super-maxq"},
    dataset_device_name{"A100 40GB PCIe", "a100-40gb"},
    dataset_device_name{"A100 40GB SXM4", "a100-sxm4-40gb"},
    dataset_device_name{"RTX 3070", "rtx3070"},
    dataset_device_name{"RTX 3080", "rtx3080"},
    dataset_device_name{"RTX 3080 Max-Q (laptop)", "rtx3080-maxq"},
    dataset_device_name{"RTX 3090", "rtx3090"},
    dataset_device_name{"RTX 3090 Ti", "rtx3090ti"},
    dataset_device_name{"RTX A4000", "rtx-a4000"},
    dataset_device_name{"RTX A4500", "rtx-a4500"},
    dataset_device_name{"RTX A5000", "rtx-a5000"},
    dataset_device_name{"RTX A5500", "rtx-a5500"},
    dataset_device_name{"RTX A6000", "rtx-a6000"},
};

/// ASCII lower case, with '_' read as ' '.
[[nodiscard]] constexpr char fold_device_name_char(char c) noexcept {
  if (c == '_') return ' ';
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

/// Whether two device names are equal ignoring ASCII case and '_' versus ' '.
[[nodiscard]] constexpr bool same_device_name(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (fold_device_name_char(a[i]) != fold_device_name_char(b[i])) return false;
  }
  return true;
}

}  // namespace prenet::detail

namespace prenet::devices {

/// The entry a dataset's device name means, or nullptr: NeuSight's "Tesla V100-PCIE-32GB" or file stem
/// "NVIDIA_A100_80GB_PCIe", Justus et al.'s folder "k80" (one GPU of the board) or "V100" (the SXM2 card), or any
/// entry's `name` (`nvidia-smi`'s spelling). Case and '_' versus ' ' are ignored. Not an id look-up: "V100" is
/// Justus's SXM2 card, while id "v100" is the PCIe card (use `find`). See docs/devices.md.
[[nodiscard]] constexpr const device_spec* from_dataset_name(std::string_view name) noexcept {
  for (const detail::dataset_device_name& n : detail::dataset_device_names) {
    if (detail::same_device_name(n.name, name)) return find(n.id);
  }
  for (std::size_t i = 0; i < catalogue.size(); ++i) {
    if (detail::same_device_name(catalogue[i].name, name)) return catalogue.data() + i;
  }
  return nullptr;
}

}  // namespace prenet::devices
