// Helpers shared by tests: file loading, small CSV reading, running commands.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace test_util {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Rows of a simple CSV (no quoted commas); lines starting with '#' skipped.
inline std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::string cell;
    std::stringstream ls(line);
    while (std::getline(ls, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(std::move(cells));
  }
  return rows;
}

inline std::vector<std::byte> bytes_of(const std::string& s) {
  std::vector<std::byte> v(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) v[i] = static_cast<std::byte>(s[i]);
  return v;
}

/// What a command run through the shell gave: its exit code (-1: killed) and stdout.
struct shell_result {
  int code = -1;
  std::string out;
};

/// Runs `cmd` with sh (the caller adds redirections such as "2>&1").
inline shell_result run_shell(const std::string& cmd) {
  shell_result r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = ::pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

#if defined(TPUPROF_CLI)
/// Runs the tpuprof CLI with `args`, stderr merged into the output.
inline shell_result run_cli(const std::string& args) {
  return run_shell(std::string(TPUPROF_CLI) + " " + args + " 2>&1");
}
#endif

}  // namespace test_util
