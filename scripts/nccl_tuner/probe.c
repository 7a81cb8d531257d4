/* Loads NCCL's example tuner plugin (built from an NCCL checkout by scripts/nccl_tuner/run.sh)
 * and asks it, as NCCL's ncclGetAlgoInfo does (NVIDIA/nccl src/enqueue.cc), which algorithm and
 * protocol it prefers for one collective at each given nBytes: the table's entry the plugin sets
 * to cost 0. Prints "BYTES ALGO PROTO CHANNELS" per size ("none" when the plugin set nothing).
 * Usage: probe PLUGIN.so COLLECTIVE NRANKS NNODES BYTES... (NCCL_TUNER_CONFIG_FILE names the
 * CSV). Used once by hand to confirm that the plugin reads `tune --export nccl-tuner`'s table
 * as proofs_check/nccl_tuner_table.h does (docs/tune.md "NCCL tuner table"). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuner.h"

static const char* kAlgos[NCCL_NUM_ALGORITHMS] = {"tree", "ring", "collnet_direct",
                                                  "collnet_chain", "nvls", "nvls_tree", "pat"};
static const char* kProtos[NCCL_NUM_PROTOCOLS] = {"ll", "ll128", "simple"};

static int Collective(const char* s) {
  const char* names[] = {"broadcast", "reduce", "allgather", "reducescatter", "allreduce"};
  for (int i = 0; i < 5; ++i)
    if (strcmp(s, names[i]) == 0) return i;
  return -1;
}

int main(int argc, char** argv) {
  if (argc < 6 || Collective(argv[2]) < 0) {
    fprintf(stderr, "usage: probe PLUGIN.so COLLECTIVE NRANKS NNODES BYTES...\n");
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  const ncclTuner_v5_t* t = (const ncclTuner_v5_t*)dlsym(lib, "ncclTunerPlugin_v5");
  if (!t) {
    fprintf(stderr, "no ncclTunerPlugin_v5 in %s\n", argv[1]);
    return 2;
  }
  void* ctx = NULL;
  if (t->init(&ctx, 0, strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10), NULL, NULL,
              NULL) != ncclSuccess) {
    fprintf(stderr, "init failed\n");
    return 2;
  }
  for (int i = 5; i < argc; ++i) {
    float table[NCCL_NUM_ALGORITHMS][NCCL_NUM_PROTOCOLS];
    for (int a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
      for (int p = 0; p < NCCL_NUM_PROTOCOLS; ++p) table[a][p] = 1.0f;
    int channels = 0;
    const size_t bytes = strtoull(argv[i], NULL, 10);
    t->getCollInfo(ctx, (ncclFunc_t)Collective(argv[2]), bytes, 1, (float**)table,
                   NCCL_NUM_ALGORITHMS, NCCL_NUM_PROTOCOLS, 0, &channels);
    const char *algo = "none", *proto = "none";
    for (int a = 0; a < NCCL_NUM_ALGORITHMS; ++a)
      for (int p = 0; p < NCCL_NUM_PROTOCOLS; ++p)
        if (table[a][p] == 0.0f) algo = kAlgos[a], proto = kProtos[p];
    printf("%zu %s %s %d\n", bytes, algo, proto, channels);
  }
  t->finalize(ctx);
  return 0;
}
