// dynscope-cli: every engine capability headless. Parses the command line, loads the model,
// runs one command and prints JSON (or CSV for trajectories). Exit status: 0 success,
// 1 load/runtime error, 2 usage error; every failure is one "dynscope-cli: error: ..." line.
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "messages.hpp"
#include "options.hpp"
#include "session.hpp"

namespace {

int fail(const std::string& message, int status) {
  std::fprintf(stderr, "dynscope-cli: error: %s\n", message.c_str());
  return status;
}

void runCommand(const cli::Session& s, cli::JsonWriter& json) {
  using cli::Command;
  switch (s.options.command) {
    case Command::Info:
      return cli::writeInfo(s, json);
    case Command::Fk:
      return cli::writeForwardKinematics(s, json);
    case Command::Jacobian:
      return cli::writeJacobian(s, json);
    case Command::Id:
      return cli::writeInverseDynamics(s, json);
    case Command::Mass:
      return cli::writeMassMatrix(s, json);
    case Command::Bias:
      return cli::writeBias(s, json);
    case Command::Fd:
      return cli::writeForwardDynamics(s, json);
    case Command::Energy:
      return cli::writeEnergy(s, json);
    case Command::Ik:
      return cli::writeInverseKinematics(s, json);
    case Command::Opcount:
      return cli::writeOperationCounts(s, json);
    case Command::Trace:
      return cli::writeTrace(s, json);
    case Command::Assemble:
      return cli::writeAssembly(s, json);
    case Command::Trajectory:  // CSV, dispatched in main
    case Command::Simulate:
    case Command::Check:  // its own JSON and exit status, dispatched in main
    case Command::Convert:
    case Command::Equations:
      return;
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::optional<cli::Options> options = cli::parseArguments(argc, argv);
    if (!options) return 0;  // help or version printed
    if (options->command == cli::Command::Check) return cli::runCheck(*options);
    if (options->command == cli::Command::Convert) return cli::runConvert(*options);
    if (options->command == cli::Command::Equations) return cli::runEquations(*options);
    const cli::Session session = cli::openSession(*options);
    if (options->command == cli::Command::Simulate) return cli::runSimulation(session);
    if (options->command == cli::Command::Trajectory) {
      cli::runSampling(session);
      return 0;
    }
    if (options->trajectory || options->project) {
      cli::runTrajectory(session);
      return 0;
    }
    // Build the whole document first: a failing command must not leave half a JSON on stdout.
    std::ostringstream text;
    {
      cli::JsonWriter json(text);
      json.beginObject();
      cli::writeHeader(session, json);
      runCommand(session, json);
      if (!cli::warnings().empty()) json.arrayField("warnings", cli::warnings());  // also on stderr
      json.endObject();
      // info prints unlimited limits as null on purpose, trace the entries of H and L not computed
      // yet (trace warns about a non-finite result itself); elsewhere null means a singular
      // computation (e.g. a massless body in forward dynamics).
      if (json.nonFiniteCount() > 0 && options->command != cli::Command::Info &&
          options->command != cli::Command::Trace)
        std::fprintf(stderr, "dynscope-cli: warning: %d result values are NaN or infinite (printed as null)\n",
                     json.nonFiniteCount());
    }
    if (options->command == cli::Command::Trace && options->out) {  // a walk-through is long: a file
      cli::writeOutput(options->out, [&](std::ostream& out) { out << text.view() << '\n'; });
      return 0;
    }
    std::cout << text.view() << '\n' << std::flush;  // view(): no second copy of a big result
    if (!std::cout) return fail("cannot write to stdout", 1);
    return 0;
  } catch (const cli::UsageError& e) {
    const auto command = argc > 1 ? cli::commandByName(argv[1]) : std::nullopt;
    const std::string help = command ? std::string(cli::commandName(*command)) + " --help" : "--help";
    return fail(std::string(e.what()) + "\n(run 'dynscope-cli " + help + "' for usage)", 2);
  } catch (const std::exception& e) {  // LoadError / ProjectError ("file:line: ..."), I/O, engine
    return fail(e.what(), 1);
  } catch (...) {
    return fail("unexpected internal error", 1);
  }
}
