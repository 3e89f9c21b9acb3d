#include "geomsim/support/file_lock.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "geomsim/support/errors.hpp"

namespace geomsim {

FileLock::FileLock(const std::string& path, const std::string& argument) {
  const std::string lock = path + ".lock";
  descriptor_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (descriptor_ < 0) throw InvalidArgument(argument, "cannot create the lock file '" + lock + "': " + std::strerror(errno));
  struct flock whole {};
  whole.l_type = F_WRLCK;
  whole.l_whence = SEEK_SET;  // from the start, l_len 0: the whole file
  int status = 0;
  while ((status = ::fcntl(descriptor_, F_SETLKW, &whole)) != 0 && errno == EINTR) {
  }
  if (status != 0) {
    const std::string why = std::strerror(errno);
    ::close(descriptor_);
    throw InvalidArgument(argument, "cannot lock '" + lock + "': " + why);
  }
}

FileLock::~FileLock() {
  if (descriptor_ >= 0) ::close(descriptor_);  // closing releases the lock
}

}  // namespace geomsim
