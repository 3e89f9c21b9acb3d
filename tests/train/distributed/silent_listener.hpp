#pragma once
// A program that holds a port, accepts every connection and never answers: what a rank meets when
// MASTER_PORT is another service's, or rank 0 is stopped (issue 53). A child process (fork, no
// exec: it only calls accept() and pause()) that listens on a free port of 127.0.0.1; the object
// kills it by its pid and reaps it when it goes out of scope, and the child dies with the test
// (PR_SET_PDEATHSIG), so nothing outlives the test.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

namespace geomsim::testing {

class SilentListener {
 public:
  SilentListener() {
    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0) throw std::runtime_error("SilentListener: socket() failed");
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(listener, 16) != 0 ||
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      ::close(listener);
      throw std::runtime_error("SilentListener: could not listen on 127.0.0.1");
    }
    port_ = ntohs(address.sin_port);
    const pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(0);
      for (;;) {
        if (::accept(listener, nullptr, nullptr) < 0) ::pause();  // every connection is kept open, unanswered
      }
    }
    ::close(listener);  // the child's copy listens
    if (pid_ < 0) throw std::runtime_error("SilentListener: fork() failed");
  }
  ~SilentListener() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  SilentListener(const SilentListener&) = delete;
  SilentListener& operator=(const SilentListener&) = delete;

  int port() const { return port_; }

 private:
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace geomsim::testing
