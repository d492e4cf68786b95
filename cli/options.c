/*
 * options.c -- every option of the command, declared once: its name, its
 * short letter, its argument's placeholder, its help and the commands that
 * take it (as curl's docs/cmdline-opts declare curl's). From this table:
 *   - each command's --help: a line "@--NAME" of the command's help text
 *     is NAME's entry ("  --NAME ARG   help", wrapped at the command's
 *     column), and "{--NAME}" in any help text is "--NAME ARG"
 *     (cli_put_help);
 *   - the manual page's option lists and the shell completions
 *     (`roofline help --options`, read by tools/gen_docs.py);
 *   - the test that every flag a command's parser takes is declared for
 *     that command and shown in its --help (tests/unit/test_options.c).
 * A name that means one thing in some commands and another elsewhere
 * (--dtype: a layer's format, a model's compute format) has one
 * declaration per meaning, each with its commands; a command never has
 * two of one name, but for a common flag ("*") it gives its own meaning
 * of, declared before it (measure's --json).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

const cli_optdef cli_optdefs[] = {
    /* a command's own meaning of a common flag (before the common one) */
    {"json", 0, NULL, "measure", "every figure in base units (FLOP/s, B/s, s, B)"},
    {"csv", 0, NULL, "measure",
     "one row per figure (peak, bandwidth of a level, point), base\n"
            "units with the unit in the column's name"},
    /* every command's (cli_parse, the dispatcher) */
    {"json", 0, NULL, "*", "machine-readable output: one JSON document"},
    {"cpu", 0, NULL, "trace",
     "put the CPU ops under the CPU's roofs even when the trace\n"
            "has GPU kernels (a trace without GPU kernels: always)"},
    {"csv", 0, NULL, "*", "machine-readable output: CSV"},
    {"hw-file", 0, "PATH", "*", "add devices from a CSV in data/hardware.csv's format"},
    {"help", 'h', NULL, "*", "this help"},
    /* the commands' own */
    {"batching", 0, "K", "plan",
     "continuous (default) or static"},
    {"chunk", 0, "N", "plan",
     "prefill tokens per step at most (default 512: vLLM's\n"
            "max_num_batched_tokens with chunked prefill)"},
    {"mem-fraction", 0, "F", "plan",
     "share of each device's memory the engine takes (default\n"
            "0.90: vLLM's gpu_memory_utilization)"},
    {"block-size", 0, "N", "plan",
     "tokens per KV-cache block (default 16: vLLM's)"},
    {"reserve", 0, "B", "plan",
     "memory per device kept for CUDA graphs and workspaces\n"
            "(default 0.21 GiB: the smallest CUDA-graph footprint vLLM\n"
            "logs, Llama 3.2 1B, vllm-project/vllm pull request 11349)"},
    /* the model's sizes (model, decode, prefill, plan, mfu) */
    {"layers", 0, "L", "model decode prefill plan mfu", "layers"},
    {"heads", 0, "H", "model decode prefill plan mfu", "attention heads"},
    {"kv-heads", 0, "K", "model decode prefill plan mfu", "key/value heads (grouped-query attention; default: --heads)"},
    {"head-dim", 0, "D", "model decode prefill plan mfu", "width of one head (default: --d-model / --heads)"},
    {"d-model", 0, "D", "model decode prefill plan mfu", "model width (default: --heads x --head-dim)"},
    {"params", 0, "N", "model decode prefill plan mfu", "parameters, the count as given (7e9)"},
    {"d-ff", 0, "F", "model decode prefill plan mfu", "MLP width (with --vocab: the parameter count derived)"},
    {"vocab", 0, "V", "model decode prefill plan mfu", "vocabulary size"},
    {"experts", 0, "E", "model decode prefill plan mfu", "experts of a mixture of experts"},
    {"experts-active", 0, "K", "model decode prefill plan mfu", "experts each token is routed to"},
    {"mlp", 0, "gated|plain", "model decode prefill plan mfu", "gated: 3 d d_ff weights; plain: 2 d d_ff (default gated)"},
    {"norm", 0, "rms|layer", "model decode prefill plan mfu", "RMSNorm or LayerNorm"},
    {"tied", 0, NULL, "model decode prefill plan mfu", "the output layer reuses the embedding"},
    {"bias", 0, NULL, "model decode prefill plan mfu", "linear layers have biases"},
    {"learned-pos", 0, "N", "model decode prefill plan mfu", "N learned position embeddings"},
    {"kv-dtype", 0, "DT", "model", "format of the KV cache per token (default: the activations' format)"},
    /* devices described by their figures, inference */
    {"peak", 0, "P", "decode prefill plan", "your own device's peak, with --bw (or the named device's peak replaced)"},
    {"bw", 0, "B", "op kernel layer plot decode prefill plan", "override the bandwidth (or, with --peak and no --hw, your own device's)"},
    {"bw-eff", 0, "F", "decode prefill plan", "the fraction of the bandwidth assumed reached (as --compute-eff)"},
    {"comm-latency", 0, "T|nccl", "decode prefill plan",
     "latency per all-reduce (default: the floor no published all-reduce beats, 0.5 us\n"
            "over NVLink; nccl: NCCL's ring model, 6.6 us + 2(n-1) x the link's hop)"},
    /* layer shapes in plot (as `roofline layer`) */
    {"rows", 0, "R", "plot", "the layer's activation rows (as `roofline layer`)"},
    {"d", 0, "D", "plot", "the layer's model width (as `roofline layer`)"},
    {"batches", 0, "A,B,C", "plot", "the layer's linear-layer token batches (as `roofline layer`)"},
    {"seq", 0, "T", "plot", "the layer's attention sequence length (as `roofline layer`)"},
    {"head-dim", 0, "D", "plot", "the layer's attention head width (as `roofline layer`)"},
    {"width", 0, "W", "plot", "SVG pixels (960; 320..8000) or terminal cells (60..400)"},
    {"height", 0, "H", "plot", "SVG pixels (620; 240..8000) or terminal cells (16..200)"},
    {"color", 0, NULL, "plot", "colour the terminal chart when piped too"},
    {"ascii", 0, NULL, "plot", "a terminal chart of 7-bit characters only"},
    {"batch", 0, "B", "widget", "linear-layer tokens (512)"},
    {"d", 0, "D", "widget", "model width (4096)"},
    /* mfu */
    {"tokens-per-step", 0, "K", "mfu", "tokens per training step (with --step-time)"},
    {"step-time", 0, "S", "mfu", "time of one training step (with --tokens-per-step)"},
    {"attention", 0, "full|causal|none", "mfu", "attention FLOPs counted in full, causal-halved or left out (default full)"},
    {"recompute", 0, "none|selective|full", "mfu", "recomputation, for the HFU (default none)"},
    {"exclude-embedding", 0, NULL, "mfu", "N without the embedding table (nanoGPT-style)"},
    {"sparse", 0, NULL, "mfu", "the same as --sparse-peak"},
    {"hw", 0, "ID", "mfu", "the device whose dense tensor peak of --dtype is used (default h100)"},
    {"dtype", 0, "DT", "mfu", "the matmuls' format, whose tensor peak is used (default bf16)"},
    /* comm */
    {"params", 0, "N", "comm", "a model's gradients: N parameters of --dtype (instead of --bytes)"},
    {"dtype", 0, "DT", "comm", "the gradients' format, with --params (default bf16)"},
    {"ranks-per-node", 0, "G", "comm", "ranks in a node: the two-level all-reduce (with --inter-busbw)"},
    {"inter-busbw", 0, "B", "comm", "bus bandwidth across nodes, of the two-level all-reduce"},
    {"backward-time", 0, "T", "comm", "the backward pass's time, with --step-time (default 2/3 of the step)"},
    {"bucket", 0, "B", "comm", "DDP's gradient bucket, with --step-time (default 25MiB)"},
    /* trace */
    {"jobs", 'j', "N", "trace", "worker threads (default: every CPU)"},
    {"attention-impl", 0, "fused|naive", "prefill",
     "fused (FlashAttention: scores stay on chip; the\n"
            "default) or naive (scores and probabilities written to and\n"
            "read from memory, as unfused peers count them)"},
    {"batch", 0, "LIST", "decode",
     "batch sizes: 1,8,64,256 or a doubling range 1..1024\n"
            "(default 1..1024)"},
    {"batch", 0, "B", "prefill",
     "prompts processed together (default 1)"},
    {"batches", 0, "A,B,C", "layer",
     "linear-layer token batches (default 1,128,512)"},
    {"busbw", 0, "B", "comm",
     "bus bandwidth as nccl-tests reports it (e.g. 360GB/s)"},
    {"bw", 0, "B", "trace",
     "override the device's memory bandwidth (e.g. 4.8TB/s)"},
    {"bytes", 0, "Q", "kernel",
     "bytes read plus written (100MB, 64KiB)"},
    {"bytes", 0, "S", "comm",
     "the buffer (all-reduce), the gathered output (all-gather) or\n"
            "the input (reduce-scatter); or {--params} [{--dtype}] for a\n"
            "model's gradients (default bf16)"},
    {"causal", 0, NULL, "prefill",
     "causal attention: half the score FLOPs (the default)"},
    {"compute-eff", 0, "F", "decode prefill plan",
     "assume this fraction of the peak is reached (0.7 or 70%;\n"
            "default 1: the pure bound); {--bw-eff} the same for bandwidth"},
    {"context", 0, "T", "decode",
     "tokens in each sequence's KV cache (default 0: weights only)"},
    {"d", 0, "D", "layer",
     "model width (default 4096)"},
    {"dtype", 0, "DT", "op",
     "fp64 fp32 tf32 bf16 fp16 fp8 int8 fp4 (default bf16)"},
    {"dtype", 0, "DT", "kernel",
     "format of the arithmetic (default bf16)"},
    {"dtype", 0, "DT", "layer",
     "default bf16"},
    {"dtype", 0, "DT,...", "plot",
     "formats, one roof each per device (default bf16)"},
    {"dtype", 0, "DT", "widget",
     "number format (default bf16)"},
    {"dtype", 0, "DT", "decode prefill plan",
     "activations and compute; picks the tensor peak (default:\n"
            "the model's format; fp16 and bf16 stand in for each other\n"
            "when the device gives only one, and the output says so)"},
    {"embedding", 0, "gathered|full", "decode prefill plan",
     "read only the B embedding rows looked up (default)\n"
            "or the whole table with 2 FLOPs per parameter (hand calculations)"},
    {"ep", 0, "N", "decode prefill",
     "mixture of experts: the experts over N devices (a multiple of\n"
            "--tp, dividing the experts): attention tp-way in N/tp replicas,\n"
            "an all-to-all of the routed tokens to the experts and back per\n"
            "MoE layer (DeepSpeed-MoE, vLLM's expert parallelism)"},
    {"ep", 0, "LIST", "plan",
     "expert-parallel degrees of a mixture of experts (default 1),\n"
            "e.g. 1,8: multiples of tp dividing the experts; pp x ep devices"},
    {"flops", 0, "F", "kernel",
     "FLOPs (1e9, 17.2GFLOP, 0 for a pure copy)"},
    {"capture", 0, "FILE", "trace",
     "the CUDA-graph captures of the run, profiled into a file of\n"
            "their own (vLLM, SGLang capture at start-up): each replayed\n"
            "kernel takes the op of its capture's launch, matched by kernel\n"
            "name in order"},
    {"format", 0, "F", "trace",
     "kineto, ncu or nsys (default: detected from the content)"},
    {"gen", 0, "G", "plan",
     "tokens generated per request (required)"},
    {"gpus", 0, "N", "plan",
     "devices available (default 8)"},
    {"gpus", 0, "N", "mfu",
     "devices"},
    {"group-size", 0, "G", "decode prefill plan",
     "weights per scale: N, channel or none (default 128 for\n"
            "int4/fp4: a 16-bit scale + 4-bit zero point per group; per\n"
            "output channel for int8/fp8: a 16-bit scale)"},
    {"head-dim", 0, "D", "layer",
     "attention head width (default 128)"},
    {"hta", 0, NULL, "trace",
     "HTA's own figures: drop the last ProfilerStep and round\n"
            "fractional microseconds inward, as HTA does"},
    {"hw", 0, "ID", "op",
     "device (roofline hw list); or {--peak!} and {--bw!} for your own"},
    {"hw", 0, "ID", "kernel",
     "device; or {--peak} {--bw} for your own"},
    {"hw", 0, "ID", "layer",
     "device (default nvidia-h100-sxm5); or {--peak} {--bw}"},
    {"hw", 0, "ID,...", "plot",
     "devices (default nvidia-h100-sxm5); or {--peak} {--bw}"},
    {"hw", 0, "ID[,ID]", "widget",
     "device, and a second one to compare (default nvidia-h100-sxm5)"},
    {"hw", 0, "ID", "trace",
     "device (default: the one the trace names, from the database);\n"
            "a CPU trace: measured (the {--hw-file} row `measure --save-hw`\n"
            "wrote for its CPU and threads, else this machine measured\n"
            "now, --quick), or a CPU's id"},
    {"hw", 0, "ID", "decode prefill plan",
     "default nvidia-h100-sxm5; or {--peak} {--bw} [{--mem}]"},
    {"hw", 0, "ID", "comm",
     "take half the device's NVLink figure (one direction) as busbw"},
    {"id", 0, "ID", "measure",
     "its id (default measured-cpu)"},
    {"kernel", 0, "LIST", "measure",
     "what to measure: peak, read, copy, triad, bandwidth (the\n"
            "three), gemm, add, all (default), comma-separated"},
    {"kv-dtype", 0, "DT", "decode prefill",
     "KV cache (e.g. fp8; default: --dtype, else the activations' format: bf16\n"
            "for an fp8 checkpoint)"},
    {"kv-dtype", 0, "LIST", "plan",
     "KV-cache formats (default: --dtype, else the activations' format), e.g. bf16,fp8"},
    {"latency", 0, "T", "comm",
     "alpha per ring step (2(n-1) steps for an all-reduce)"},
    {"link-bw", 0, "B", "decode prefill plan",
     "their bus bandwidth (default: half the device's NVLink\n"
            "figure, one direction); {--comm-latency} per all-reduce"},
    {"link-bw", 0, "B", "comm",
     "the slowest link's one-way bandwidth (a ring's busbw ceiling)"},
    {"max-batch", 0, "B", "plan",
     "the search's limit when capacity is not checked (65536)"},
    {"mem", 0, "M", "op kernel layer plot",
     "override the capacity"},
    {"mem", 0, "M", "decode prefill plan",
     "capacity per device (default: the database's; 80GiB ...)"},
    {"microbatches", 0, "M", "decode prefill",
     "with --pp: the batch in M micro-batches (default min(N, B), one\n"
            "per stage as vLLM keeps in flight; at most B). Prefill: GPipe's\n"
            "schedule, bubble (N-1)/(M+N-1); decode: a token's time is the\n"
            "larger of one micro-batch's path and the busiest stage's round"},
    {"model", 0, "NAME", "trace",
     "the model the trace ran (roofline model list, a Hugging Face id\n"
            "or config.json): vLLM's moe_forward records only the hidden\n"
            "states and router logits; with the model its experts' FLOPs\n"
            "(2 T k 3 d d_ff) and bytes (at least k experts' weights in the\n"
            "model's expert format, gpt-oss' MXFP4, else at 4 bits) are\n"
            "bounded, else it stays uncovered. An expert count or\n"
            "hidden size the trace contradicts is refused"},
    {"model", 0, "ID|PATH", "model decode prefill plan mfu",
     "a built-in model (roofline model list) or one of its Hugging\n"
            "Face ids (meta-llama/Llama-3.1-8B), a config.json, or a folder\n"
            "that holds one"},
    {"n", 0, "N", "widget",
     "matmul size (4096); {--batch} linear tokens (512)"},
    {"name", 0, "NAME", "kernel",
     "label for the output"},
    {"new-tokens", 0, "N", "prefill",
     "tokens generated after the prompt (default 0)"},
    {"no-causal", 0, NULL, "prefill",
     "count the full score matrix"},
    {"ops", 0, NULL, "decode",
     "also table one step op by op (one batch size, default 1):\n"
            "embedding, projections, attention over the KV cache, MLP and\n"
            "its activation, norms, adds, output layer, all-reduces (--tp),\n"
            "each bounded on its own as `roofline prefill` tables a prompt;\n"
            "their sum is >= the step's bound, which overlaps them all"},
    {"output", 'o', "FILE", "plot",
     "write the SVG to FILE (- for stdout; default: stdout when\n"
            "it is not a terminal)"},
    {"output", 'o', "FILE", "widget",
     "write the page to FILE (default: stdout)"},
    {"overhead", 0, "T", "op kernel layer plot",
     "launch overhead below which an op is overhead-bound (4us)"},
    {"overhead", 0, "T", "trace",
     "launch overhead and floor (default 4us; ncu: the shortest\n"
            "launch in the export, at most 4us)"},
    {"padding", 0, "F", "mfu",
     "fraction of the tokens that is padding (0.05 or 5%)"},
    {"peak", 0, "P", "op kernel layer plot",
     "override the peak (989.4T); {--bw} the bandwidth (3.35TB/s)"},
    {"peak", 0, "P", "mfu",
     "your own figure per device (dense)"},
    {"plot", 0, "FILE", "measure",
     "the chart as SVG: one slanted roof per level (L1, L2, L3,\n"
            "DRAM), the highest measured peak flat and the other peaks\n"
            "(FP64, FP32, FMA+add, BF16) as ceilings; the matmuls and adds\n"
            "labelled by size with their fraction of roof"},
    {"plot", 0, "PATH", "trace",
     "also write the top kernels (--top, default 10) as SVG: at their\n"
            "achieved FLOP/s under the roofs of the formats they use (tensor\n"
            "peak, vector peaks as ceilings), marker area by time; ncu: the\n"
            "hierarchical chart, each launch at its L1, L2 and HBM\n"
            "intensities (joined) under one roof per level; the four longest\n"
            "reducing collectives (all-reduce, reduce-scatter) as diamonds on\n"
            "the link's roof: their adds over nccl-tests' bus bytes"},
    {"points", 0, "FILE", "plot",
     "points from a JSON file (see above)"},
    {"points", 0, "FILE", "widget",
     "also show these points (as `roofline plot --points`)"},
    {"pp", 0, "N", "decode prefill",
     "pipeline: the layers split over N stages (L/N each, the\n"
            "remainder one more each on the stages before the last, as\n"
            "vLLM splits them; embedding on the first, output layer on the\n"
            "last); B x d activations sent between stages. Per device: the\n"
            "largest stage's weights + its layers' KV caches"},
    {"pp", 0, "LIST", "plan",
     "pipeline stages (default 1), e.g. 1,2,4; each combination\n"
            "with pp x tp devices at most --gpus is tried"},
    {"preset", 0, "NAME", "plot",
     "layer (default without OPs and --points) or none"},
    {"prompt", 0, "P", "prefill",
     "prompt tokens (required)"},
    {"prompt", 0, "P", "plan",
     "prompt tokens per request (required)"},
    {"quantize-all", 0, NULL, "decode prefill plan",
     "quantize the embedding and output layer too (with\n"
            "--group-size none: the peers' all-weights convention)"},
    {"quick", 0, NULL, "measure",
     "fewer working sets (up to 1 GiB) and repeats, gemm up to\n"
            "n = 1024; after 5 s nothing is taken again"},
    {"ranks", 0, "N", "comm",
     "ranks, >= 2"},
    {"require-fit", 0, NULL, "decode prefill",
     "exit 1 when the model does not fit in the devices' memory"},
    {"rows", 0, "R", "layer",
     "activation rows (default 4096)"},
    {"save-hw", 0, "FILE", "measure",
     "write the measured machine as a hardware entry (the format\n"
            "of data/hardware.csv), for `roofline op ... --hw-file FILE`"},
    {"seq", 0, "T", "layer",
     "attention sequence length (default 4096)"},
    {"seq", 0, "T", "widget",
     "sequence length (4096); {--d} model width (4096)"},
    {"seq", 0, "T", "mfu",
     "tokens per sequence (context length)"},
    {"sparse", 0, NULL, "op kernel layer",
     "use the 2:4 sparse tensor peak (labelled as such)"},
    {"sparse", 0, NULL, "plot widget",
     "2:4 sparse tensor peaks (labelled); dense otherwise"},
    {"sparse", 0, NULL, "decode prefill plan",
     "divide by the 2:4 sparse peak (labelled)"},
    {"sparse-peak", 0, NULL, "mfu",
     "divide by the 2:4 sparse peak (labelled; halves MFU)"},
    {"step-time", 0, "T", "comm",
     "a training step: the share the collective takes with no\n"
            "overlap; DDP's bucketed overlap with the backward pass\n"
            "({--backward-time!}, default 2/3 of the step; {--bucket!}, default\n"
            "25MiB); FSDP / ZeRO-3 at 1.5 x DDP's traffic"},
    {"term", 0, NULL, "plot",
     "draw in the terminal instead (Unicode), fitting the terminal\n"
            "(COLUMNS x LINES, else the window's size, else 100 x 30; or\n"
            "--width x --height); colour on a terminal unless NO_COLOR is\n"
            "set; {--color} colours when piped too; {--ascii} 7-bit only"},
    {"term", 0, NULL, "measure",
     "the same chart in the terminal, after the tables"},
    {"threads", 0, "N", "measure",
     "threads for the \"all\" figures (default: every CPU)"},
    {"threads", 0, "N", "trace",
     "a CPU trace's intra-op threads (default: the trace's\n"
            "intra_op_threads), whose measured roofs bound its ops"},
    {"time", 0, "T", "op",
     "measured time (25us): achieved FLOP/s, fraction of roof"},
    {"time", 0, "T", "kernel",
     "measured time (22us); a time below the roof's bound is\n"
            "flagged above roof (JSON above_roof), which the model\n"
            "rules out"},
    {"title", 0, "TEXT", "plot",
     "the chart's title"},
    {"title", 0, "TEXT", "widget",
     "the page's title"},
    {"tokens-per-s", 0, "R", "mfu",
     "measured over whole steps, whole run; or"},
    {"top", 0, "N", "trace",
     "rows shown per table (default 10; JSON: all rows unless given)"},
    {"tp", 0, "N", "decode prefill",
     "split weights and KV heads over N devices, 2 all-reduces a\n"
            "layer (ring, 2(n-1)/n of B d activations each)"},
    {"tp", 0, "LIST", "plan",
     "tensor-parallel degrees (default 1,2,4,... up to --gpus,\n"
            "those that divide the heads)"},
    {"tpot", 0, "T", "plan",
     "time-per-output-token target (e.g. 50ms; default none)"},
    {"ttft", 0, "T", "plan",
     "time-to-first-token target (e.g. 500ms; default none)"},
    {"vector", 0, NULL, "kernel",
     "use the vector (non-tensor) peak instead of the tensor one"},
    {"weight-dtype", 0, "DT", "op",
     "matmul B / linear and conv weights, e.g. int4 or fp8\n"
            "weights with bf16 activations (copy: the source format)"},
    {"weight-dtype", 0, "DT", "decode prefill",
     "weights (e.g. fp8, int8, int4; default: the model's format).\n"
            "Narrower than the model's: weight-only quantization, with the\n"
            "embedding, output layer, norms and routers kept in the model's\n"
            "format, as AWQ, GPTQ, bitsandbytes and FP8 checkpoints do"},
    {"weight-dtype", 0, "LIST", "plan",
     "weight formats (default: the model's), e.g. bf16,fp8,int4"},
    {"ws", 0, "LIST", "measure",
     "working sets for the bandwidth sweep, total over arrays\n"
            "and threads, e.g. 32KiB,1MiB,16MiB,1GiB"},

    {NULL, 0, NULL, NULL, NULL}};

int cli_optdef_takes(const cli_optdef *d, const char *cmd) {
  if (strcmp(d->cmds, "*") == 0) return 1;
  size_t n = strlen(cmd);
  for (const char *p = d->cmds; (p = strstr(p, cmd)) != NULL; p += n)
    if ((p == d->cmds || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return 1;
  return 0;
}

const cli_optdef *cli_optdef_find(const char *cmd, const char *name) {
  for (const cli_optdef *d = cli_optdefs; d->name; d++)
    if (strcmp(d->name, name) == 0 && cli_optdef_takes(d, cmd)) return d;
  return NULL;
}
