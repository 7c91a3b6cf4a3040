// A worker used by the tests: its handler misbehaves on request, in every way a kernel can.
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "ktune/device/cpu/cpu_backend.h"
#include "ktune/worker/serve.h"

namespace {

// A real invalid access (not undefined behaviour a sanitizer would intercept): a page
// without permissions.
int read_forbidden_page() {
  void* page = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return *static_cast<volatile int*>(page);
}

// Runs a CPU kernel: {"compiled": CompileResult, "entry": name, "args": [{"name", "type",
// "is_array", "values": [...]}]} -> {"args": [[values of each argument after the run]]}.
nlohmann::json run_cpu_kernel(const nlohmann::json& request) {
  using namespace ktune;
  using namespace ktune::device;
  static cpu::CpuBackend backend;
  auto compiled = request.at("compiled").get<CompileResult>();
  auto kernel = backend.load(0, compiled, request.at("entry").get<std::string>(), LaunchGeometry{});
  std::vector<HostArgument> args;
  for (const auto& a : request.at("args")) {
    auto type = parse_element_type(a.at("type").get<std::string>()).value();
    const auto& values = a.at("values");
    if (a.at("is_array").get<bool>()) {
      args.push_back(array_argument(a.at("name"), type, values.size()));
      for (std::size_t i = 0; i < values.size(); ++i) store_element(args.back().data.data(), i, type, values[i].get<double>());
    } else {
      args.push_back(scalar_argument(a.at("name"), type, Value::real(values.at(0).get<double>())));
    }
  }
  kernel->bind(args);
  kernel->run();
  nlohmann::json out = nlohmann::json::array();
  for (const auto& a : args) {
    nlohmann::json values = nlohmann::json::array();
    for (std::size_t i = 0; i < a.element_count(); ++i) values.push_back(load_element(a.data.data(), i, a.type));
    out.push_back(values);
  }
  return {{"args", out}};
}

nlohmann::json handle(const nlohmann::json& request) {
  const std::string op = request.value("op", std::string());
  if (op == "echo") return request;
  if (op == "pid") return {{"pid", getpid()}};
  if (op == "env") {
    const char* v = std::getenv(request.at("name").get<std::string>().c_str());
    return {{"value", v ? nlohmann::json(v) : nlohmann::json()}};
  }
  if (op == "segfault") {
    std::fprintf(stderr, "about to read a forbidden page\n");
    std::fflush(stderr);
    return {{"value", read_forbidden_page()}};
  }
  if (op == "abort") {
    std::fprintf(stderr, "assertion failed: tile fits\n");
    std::abort();
  }
  if (op == "hang") {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (op == "spin") {
    volatile std::uint64_t x = 0;
    for (;;) x = x + 1;
  }
  if (op == "exit") {
    std::fflush(stdout);
    _exit(request.value("code", 0));
  }
  if (op == "throw") throw std::runtime_error(request.value("message", std::string("boom")));
  if (op == "print") {
    // Floods stdout and stderr (more than a pipe buffer) and still answers correctly.
    std::string junk(request.value("bytes", 1 << 20), 'x');
    std::fwrite(junk.data(), 1, junk.size(), stdout);
    std::fflush(stdout);
    std::fprintf(stderr, "%s\nlast words on stderr\n", "KTW1 looks like a frame but is not one");
    return {{"printed", junk.size()}};
  }
  if (op == "protocol_garbage") {
    const char garbage[] = "hello, this is not a frame";
    if (write(4, garbage, sizeof garbage) < 0) std::perror("write");
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (op == "huge_length") {
    const unsigned char header[] = {'K', 'T', 'W', '1', 0xff, 0xff, 0xff, 0xff};
    if (write(4, header, sizeof header) < 0) std::perror("write");
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (op == "half_reply") {
    const unsigned char partial[] = {'K', 'T', 'W', '1', 0, 0, 0, 100, '{'};
    if (write(4, partial, sizeof partial) < 0) std::perror("write");
    _exit(5);
  }
  if (op == "close_reply") {
    close(4);
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (op == "big") return {{"data", std::string(request.value("bytes", 1 << 20), 'y')}};
  if (op == "bad_utf8") return {{"text", std::string("ok \xff\xfe end")}};
  if (op == "sleep") {
    std::this_thread::sleep_for(std::chrono::duration<double>(request.value("seconds", 0.1)));
    return {{"slept", true}};
  }
  if (op == "hang_at_exit") {
    std::atexit([] {
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    });
    return {{"armed", true}};
  }
  if (op == "print_then_hang") {
    std::fputs(request.value("text", "").c_str(), stderr);
    std::fflush(stderr);
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (op == "sanitizer_report") {
    // The shape of AddressSanitizer's fatal report, its first line long before its end (a stack
    // being symbolised): `seconds` between them (< 0: never ends), then the exit code ASan uses.
    // `preamble` bytes of other output first, and with `split` the first line in two writes
    // 0.2 s apart, so that the parent reads it in two pieces.
    std::fputs(std::string(request.value("preamble", 0), 'p').c_str(), stderr);
    std::fprintf(stderr, "==%d==ERROR: Address", getpid());
    std::fflush(stderr);
    if (request.value("split", false)) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::fprintf(stderr, "Sanitizer: SEGV on unknown address 0x000000000000\n");
    std::fflush(stderr);
    const double seconds = request.value("seconds", 1.0);
    if (seconds < 0)
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    std::fprintf(stderr, "SUMMARY: AddressSanitizer: SEGV\n");
    std::fflush(stderr);
    _exit(1);
  }
  if (op == "cpu_kernel") return run_cpu_kernel(request);
  throw std::invalid_argument("unknown op '" + op + "'");
}

}  // namespace

int main() { return ktune::worker::serve_from_environment(handle); }
