// Atomic file output for the engine and the CLI (the GUI uses QSaveFile): the content is written
// to a temporary file in the target's directory, flushed to disk and renamed over the target in
// one step, so a reader sees either the old file or the complete new one. An error (disk full, a
// failing writer, an exception) removes the temporary, leaves the old file as it was and throws
// std::runtime_error naming the path. A target that exists but is not a regular file (/dev/null,
// /dev/stdout, a pipe) cannot be replaced and is written in place.
#pragma once
#include <fstream>
#include <functional>
#include <ostream>
#include <string>

namespace dyn {

class AtomicFile {
 public:
  // Opens the temporary file; throws std::runtime_error naming `path` when it cannot be created.
  explicit AtomicFile(std::string path);
  ~AtomicFile();  // without commit(): the temporary is removed and the target is untouched
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return out_; }
  const std::string& path() const { return path_; }
  // Flushes, syncs and renames the temporary over the target; throws naming the path on failure.
  void commit();

 private:
  void discard() noexcept;
  std::string path_, target_, temp_;  // target_: path_ with symbolic links resolved
  std::ofstream out_;
  bool inPlace_ = false, done_ = false;
};

// One-call form: write(stream) fills the file; it is committed only if write returns normally.
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace dyn
