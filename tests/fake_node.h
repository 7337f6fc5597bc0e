// A small but realistic fake GPU node for collector tests: two GPUs, a
// running device-plugin container that lost its device cgroup, real-format
// stub outputs, and planted canary secrets (all containing "gpuf-canary").
#ifndef GPUF_TESTS_FAKE_NODE_H_
#define GPUF_TESTS_FAKE_NODE_H_

#include <string>

#include "tests/test_support.h"

namespace gpuf::test {

inline constexpr char kPluginId[] = "5f1d2c3b4a5968778695a4b3c2d1e0f0a1b2c3d4e5f60718293a4b5c6d7e8f90";
inline constexpr int kPluginPid = 4242;

// Files under root, stubs for nvidia-smi, crictl, kubectl, systemctl,
// containerd and runc. Tests replace stubs to vary behaviour.
void BuildFakeNode(FakeHost& host);

// Replaces crictl with a ctr stub that knows the same container.
void UseCtrInsteadOfCrictl(FakeHost& host);

}  // namespace gpuf::test

#endif  // GPUF_TESTS_FAKE_NODE_H_
