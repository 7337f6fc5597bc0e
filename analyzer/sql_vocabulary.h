// SQL written in the code names artifacts, artifact groups and milestones
// as parameters, never as literals, and Database::Prepare binds them from
// their one table (common/artifacts.h, common/vocabulary.h):
//
//   a.name = $artifact(host.nvidia_smi_list)
//   a.name IN (SELECT value FROM json_each($group(plugin_logs)))
//   milestone = $milestone(plugin_registered)
//   (SELECT key FROM json_each($names(severity)) WHERE value = severity)   -- its rank
//
// A word the tables do not know fails the statement's preparation, so a
// rename that missed a query stops the analysis instead of matching nothing.
#ifndef GPUF_ANALYZER_SQL_VOCABULARY_H_
#define GPUF_ANALYZER_SQL_VOCABULARY_H_

#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace gpuf {

// The value of parameter `name` ("$artifact(k8s.node)"): nullopt for a
// parameter that is not of these forms (":bundle"), InvalidArgument for one
// whose word is unknown.
Result<std::optional<std::string>> SqlVocabularyValue(std::string_view name);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_SQL_VOCABULARY_H_
