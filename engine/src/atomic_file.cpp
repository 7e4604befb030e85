#include "dynscope/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace dyn {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fileFailure(const std::string& path, const std::string& what, int error) {
  throw std::runtime_error(path + ": " + what + (error ? std::string(": ") + std::strerror(error) : std::string()));
}

// Creates a fresh file next to `target` (O_EXCL: never an existing one), with the target's
// permissions when it exists, else the usual 0666 less the umask.
std::string createTemporary(const std::string& target, const std::string& path) {
  static std::atomic<unsigned> counter{0};
  struct stat st {};
  const bool exists = ::stat(target.c_str(), &st) == 0;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string temp = target + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
      if (errno == EEXIST) continue;
      fileFailure(path, "cannot create the file", errno);
    }
    if (exists) (void)::fchmod(fd, st.st_mode & 07777);
    ::close(fd);
    return temp;
  }
  fileFailure(path, "cannot create a temporary file next to it", 0);
}

// fsync of a file by name (std::ofstream keeps its descriptor to itself).
bool syncFile(const std::string& name) {
  const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), target_(path_) {
  std::error_code ec;
  if (path_.empty()) fileFailure("<empty path>", "cannot create the file", ENOENT);
  if (fs::is_symlink(path_, ec)) target_ = fs::weakly_canonical(path_, ec).string();  // replace what it points to
  if (ec) target_ = path_;
  const fs::file_status status = fs::status(target_, ec);
  inPlace_ = fs::exists(status) && !fs::is_regular_file(status);
  if (fs::is_directory(status)) fileFailure(path_, "is a directory", 0);
  if (inPlace_) {
    out_.open(target_, std::ios::binary | std::ios::trunc);
    if (!out_) fileFailure(path_, "cannot open the file for writing", errno);
    return;
  }
  temp_ = createTemporary(target_, path_);
  out_.open(temp_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    const int error = errno;
    discard();
    fileFailure(path_, "cannot create the file", error);
  }
}

AtomicFile::~AtomicFile() {
  if (!done_) discard();
}

void AtomicFile::discard() noexcept {
  done_ = true;
  if (out_.is_open()) out_.close();
  if (!temp_.empty()) std::remove(temp_.c_str());
}

void AtomicFile::commit() {
  if (done_) fileFailure(path_, "written twice", 0);
  out_.flush();
  const bool written = bool(out_);
  out_.close();
  if (!written || out_.fail()) {
    discard();
    fileFailure(path_, "write error (the previous file, if any, is unchanged)", 0);
  }
  if (inPlace_) {
    done_ = true;
    return;
  }
  if (!syncFile(temp_) || ::rename(temp_.c_str(), target_.c_str()) != 0) {
    const int error = errno;
    discard();
    fileFailure(path_, "cannot replace the file (the previous file, if any, is unchanged)", error);
  }
  done_ = true;
  // The rename itself is durable only once the directory is on disk (a power cut could otherwise
  // bring the old name back). Best effort: the new file is complete and in place either way.
  const fs::path dir = fs::path(target_).parent_path();
  (void)syncFile(dir.empty() ? std::string(".") : dir.string());
}

void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  AtomicFile file(path);
  write(file.stream());
  file.commit();
}

}  // namespace dyn
