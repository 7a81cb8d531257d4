// What `collsynth optimum --collective alltoall` computes and prints (cli/optimum_command.cc),
// shared with the Python package's `collsynth.optimum(..., collective="alltoall")`
// (docs/python.md): the all-to-all optimum lambda* solved, checked by proofs_check's
// certificate checker, with the bandwidth tax and the ECMP-like routing. Never prints.
#ifndef COLLSYNTH_CLI_ALLTOALL_REPORT_H_
#define COLLSYNTH_CLI_ALLTOALL_REPORT_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "graphs/topology.h"
#include "schedules/alltoall_flow.h"

namespace collsynth::cli {

struct AlltoallReport {
  bool lp_failed = false;           // the LP failed (the CLI's exit 3)
  bool certified = false;           // the checker accepted the certificate (else the CLI's exit 1)
  std::string failure;              // the CLI's message when not certified or the LP failed
  nlohmann::json json;              // `optimum --collective alltoall --json`, when certified
  std::string text;                 // the text report, when certified
  AlltoallCertificate certificate;  // the checked certificate, when certified (optimum -o)
};

// The demand is `demand_file`'s (empty: uniform, 1 per pair); `relay` false: compute nodes
// forward nothing. Bad input (fewer than 2 compute nodes, a demand pair with no path, a bad
// demand file) is InputError naming `file` or the demand file. `stage` (may be empty) is told
// when each stage starts.
AlltoallReport ComputeAlltoallReport(const Topology& g, const std::string& file,
                                     const std::string& demand_file, bool relay,
                                     const std::function<void(const std::string&)>& stage);

}  // namespace collsynth::cli

#endif  // COLLSYNTH_CLI_ALLTOALL_REPORT_H_
