// Notes and warnings of dynscope-cli on stderr ("dynscope-cli: note: ..." / "dynscope-cli: warning:
// ..."). The warnings of a command that prints JSON also go into its "warnings" array (main.cpp),
// so that a script reading stdout alone learns that an option was ignored or a value replaced.
#pragma once
#include <string>
#include <vector>

namespace cli {

void note(const std::string& message);
void warn(const std::string& message);
// Every warn() of this run, in order.
const std::vector<std::string>& warnings();

}  // namespace cli
