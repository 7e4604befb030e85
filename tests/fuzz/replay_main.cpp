// The fuzz targets' main() when libFuzzer is not available (gcc builds): replays the inputs given
// as libFuzzer would with -runs=0, `TARGET [-flag=value...] FILE_OR_DIR...`: every file, and every
// file directly inside a directory, is run once through LLVMFuzzerTestOneInput. Flags (libFuzzer's)
// are ignored. Exits 0 when no input failed; a failing input aborts inside the target, so the
// last "replaying" line names it.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> inputs;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg.starts_with("-")) continue;
    std::error_code ec;
    if (fs::is_directory(arg, ec)) {
      std::vector<fs::path> files;
      for (const auto& entry : fs::directory_iterator(arg))
        if (entry.is_regular_file()) files.push_back(entry.path());
      std::sort(files.begin(), files.end());
      inputs.insert(inputs.end(), files.begin(), files.end());
    } else if (fs::is_regular_file(arg, ec)) {
      inputs.emplace_back(arg);
    } else {
      std::fprintf(stderr, "%s: %s: no such file or directory\n", argv[0], arg.c_str());
      return 2;
    }
  }
  for (const fs::path& input : inputs) {
    std::fprintf(stderr, "replaying %s\n", input.c_str());
    std::ifstream in(input, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("%s: replayed %zu inputs, none failed\n", argv[0], inputs.size());
  return 0;
}
