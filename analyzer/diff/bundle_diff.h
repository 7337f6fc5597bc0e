// The comparison of two bundles: what `gpuforensics diff A B` shows.
//
// Each bundle is read into a BundleSnapshot (diff_facts.h): its identity,
// the facts of the fact table, and the device-plugin state the recovery
// check needs. CompareSnapshots pairs the facts by section and name (a fact
// present in one bundle only is a difference), decides whether both bundles
// come from the same node, and for the same node checks the recovery from A
// to B: was the plugin container really recreated, did it register, did
// allocatable come back.
//
// Same node: both bundles carry /etc/machine-id and they are equal. When
// either lacks it, equal node names count as the same node, flagged as
// weaker. Same boot: equal boot ids.
#ifndef GPUF_ANALYZER_DIFF_BUNDLE_DIFF_H_
#define GPUF_ANALYZER_DIFF_BUNDLE_DIFF_H_

#include <string>

#include "analyzer/diff/diff_result.h"
#include "common/status.h"

namespace gpuf {

// Pure: never fails.
BundleDiff CompareSnapshots(BundleSnapshot a, BundleSnapshot b);

// Loads, timelines and runs the rules on both bundles (in memory), reads
// their snapshots and compares them. Fails as AnalyzeBundle does, with the
// failing bundle's path in front.
Result<BundleDiff> DiffBundles(const std::string& path_a, const std::string& path_b);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_DIFF_BUNDLE_DIFF_H_
