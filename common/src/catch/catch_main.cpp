// The main() and the reporter of every check program. A learner reads each
// failure as its check wrote it: the cause first, never wrapped at a console
// width (Catch2's console reporter breaks lines at 80 columns, inside numbers
// too), no test-framework wording, and after a lesson's failures one line on
// how to ask for a hint, all in the learner's language (messages/checks.toml).
// The run ends with the backend the checks ran on and Catch2's summary
// ("test cases: 2 | 0 passed | 2 failed"), worded the same way. Programs read
// the run's record instead, in data, which the reporter writes beside the text
// when the runner asks for one (warpdrill/check_record.h). `-r console` still
// selects Catch2's own reporter.
//
// Catch2 2.x (Debian 12) and 3.x (Debian 13) differ in headers, the reporter
// base class and how the default reporter is chosen: only the adapter at the
// end of this file knows which one it is built with.
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#if defined(WARPDRILL_CATCH2_V2)
#define CATCH_CONFIG_EXTERNAL_INTERFACES  // the reporter's base classes; the rest is in catch2_v2.cpp
#include <catch2/catch.hpp>
// Runs the checks the command line asks for, with Catch2's exit status.
int run_catch_session(int argc, char* argv[]);
#else
#include <catch2/catch_session.hpp>
#include <catch2/catch_test_case_info.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>
#include <catch2/reporters/catch_reporter_streaming_base.hpp>
#endif

#include "warpdrill/check_record.h"
#include "warpdrill/messages.h"
#include "warpdrill/testing.h"

namespace warpdrill::report {
namespace {

const std::string kRule(79, '-');
const std::string kDoubleRule(79, '=');

// Every line of `text`, indented by two spaces.
void print_indented(std::ostream& out, const std::string& text) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) out << "  " << line << '\n';
}

// A WARN: what a check points out even when it passes, as "file:line: warning:"
// and the message indented (runner/core/checker.cpp shows it to the learner, as it
// does the backend's warnings, printed the same way after each test case).
// Returns the message.
std::string print_warning(std::ostream& out, const Catch::AssertionStats& stats) {
    const Catch::SourceLineInfo& where = stats.assertionResult.getSourceInfo();
    std::string text;
    for (const Catch::MessageInfo& message : stats.infoMessages) text += message.message + "\n";
    out << where.file << ":" << where.line << ": warning:\n";
    print_indented(out, text);
    out << std::flush;
    return text;
}

// The lesson a test case belongs to, from its tag [lessonNN]; 0 for none.
int lesson_of(const std::string& tags) {
    const std::string tag = "[lesson";
    const std::size_t at = tags.find(tag);
    if (at == std::string::npos) return 0;
    return std::atoi(tags.c_str() + at + tag.size());
}

// What went wrong in one failed assertion: its own message (a FAIL's text,
// an exception's what()) or its expression, and then the INFO context.
std::string failure_text(const Catch::AssertionStats& stats) {
    std::ostringstream out;
    const Catch::AssertionResult& result = stats.assertionResult;
    // An exception thrown between assertions (a kernel's fault, which the
    // launch or the next synchronisation raises) has no expression: Catch2
    // names the last assertion that passed instead, which is no part of it.
    const bool between_assertions = result.getResultType() == Catch::ResultWas::ThrewException &&
                                    result.getExpression() == "{Unknown expression after the reported line}";
    if (result.hasExpression() && !between_assertions) {
        const std::string expression = result.getExpressionInMacro();
        const std::string place =
            std::string(result.getSourceInfo().file) + ":" + std::to_string(result.getSourceInfo().line);
        if (result.hasExpandedExpression()) {
            out << messages::text(
                "checks.report.expression",
                {{"expression", expression}, {"value", result.getExpandedExpression()}, {"place", place}});
        } else {
            out << messages::text("checks.report.expression_only",
                                  {{"expression", expression}, {"place", place}});
        }
        out << '\n';
    }
    // Catch2 appends the assertion's own message to the INFO messages; it
    // is the cause, so it comes first.
    for (const Catch::MessageInfo& message : stats.infoMessages)
        if (message.type != Catch::ResultWas::Info) out << message.message << '\n';
    if (result.getResultType() == Catch::ResultWas::FatalErrorCondition)
        out << messages::text("checks.report.crashed") << '\n';
    for (const Catch::MessageInfo& message : stats.infoMessages)
        if (message.type == Catch::ResultWas::Info) out << message.message << '\n';
    return out.str();
}

// "test cases: 3 | 1 passed | 2 failed", as Catch2's console reporter counts.
void print_counts(std::ostream& out, const char* what, const Catch::Counts& counts, std::uint64_t skipped) {
    out << messages::text("checks.report.count.total", {{"what", messages::text(what)}, {"count", counts.total()}})
        << " | " << messages::text("checks.report.count.passed", {{"count", counts.passed}})
        << " | " << messages::text("checks.report.count.failed", {{"count", counts.failed}});
    if (counts.failedButOk > 0)
        out << " | " << messages::text("checks.report.count.failed_as_expected", {{"count", counts.failedButOk}});
    if (skipped > 0) out << " | " << messages::text("checks.report.count.skipped", {{"count", skipped}});
    out << '\n';
}

// The run's record for the runner (warpdrill/check_record.h): a line of
// JSON a test case, flushed as it ends, so that a crash keeps what came before.
class Record {
  public:
    Record() {
        if (const char* path = std::getenv(check_record::kFileVariable)) file_.emplace(path, std::ios::app);
    }
    void write(const nlohmann::json& line) {
        if (file_) *file_ << line.dump() << std::endl;
    }

  private:
    std::optional<std::ofstream> file_;
};

nlohmann::json counts_of(const Catch::Counts& counts) {
    return {{check_record::kPassed, counts.passed}, {check_record::kFailed, counts.failed}};
}

// Every test case that ran was skipped on this machine and none failed: set
// when the run ends, for main()'s exit status.
bool every_case_skipped = false;

// The reporter's state, whatever Catch2 calls it from.
class Learner {
  public:
    explicit Learner(std::ostream& out) : out_(out) {}

    void no_test_case_matched(const std::string& spec) {
        out_ << messages::text("checks.report.no_match", {{"filter", spec}}) << '\n';
        record_.write({{check_record::kEvent, check_record::kNoMatchEvent}, {check_record::kFilter, spec}});
    }

    void test_case_starting(const std::string& name, const std::string& tags) {
        name_ = name;
        lesson_ = lesson_of(tags);
        failures_.clear();
        warnings_.clear();
    }

    void assertion_ended(const Catch::AssertionStats& stats) {
        if (stats.assertionResult.getResultType() == Catch::ResultWas::Warning) {
            warnings_.push_back(print_warning(out_, stats));
            return;
        }
        if (stats.assertionResult.isOk()) return;
        if (failures_.empty()) out_ << kRule << '\n' << name_ << '\n' << kRule << '\n';
        failures_.push_back(failure_text(stats));
        out_ << messages::text("checks.report.failed") << '\n';
        print_indented(out_, failures_.back());
        out_ << std::flush;  // a crash may follow
    }

    void test_case_ended() {
        // The backend's advice, as a WARN is shown: the learner sees it beside a pass too.
        for (const std::string& warning : backend_warnings()) {
            out_ << messages::text("checks.report.backend_warning") << '\n';
            print_indented(out_, warning);
            warnings_.push_back(warning);
        }
        const bool failed = !failures_.empty();
        const std::string skip_reason = take_skip_reason();
        ++cases_;
        if (!failed && !skip_reason.empty()) ++skipped_cases_;
        if (failed && lesson_ > 0)
            out_ << messages::text("checks.report.hint", {{"lesson", lesson_}}) << '\n';
        if (failed) out_ << '\n';
        record_.write({{check_record::kEvent, check_record::kCaseEvent},
                       {check_record::kName, name_},
                       {check_record::kLesson, lesson_},
                       {check_record::kPassed, !failed},
                       {check_record::kFailures, failures_},
                       {check_record::kWarnings, warnings_},
                       {check_record::kSkipped, skip_reason}});
    }

    void test_run_ended(const Catch::Totals& totals, std::uint64_t skipped_test_cases,
                        std::uint64_t skipped_assertions) {
        every_case_skipped = cases_ > 0 && skipped_cases_ == cases_;
        record_.write({{check_record::kEvent, check_record::kEndEvent},
                       {check_record::kBackend, backend_id()},
                       {check_record::kCases, counts_of(totals.testCases)},
                       {check_record::kAssertions, counts_of(totals.assertions)}});
        out_ << kDoubleRule << '\n' << describe_backend() << '\n';
        if (totals.testCases.total() == 0) {
            out_ << messages::text("checks.report.none_ran") << '\n';
        } else if (totals.assertions.total() > 0 && totals.testCases.allPassed()) {
            out_ << messages::text("checks.report.all_passed",
                                   {{"assertions", counted(totals.assertions.passed, "checks.report.assertion.one",
                                                           "checks.report.assertion.many")},
                                    {"cases", counted(totals.testCases.passed, "checks.report.test_case.one",
                                                      "checks.report.test_case.many")}})
                 << '\n';
        } else {
            print_counts(out_, "checks.report.count.test_cases", totals.testCases, skipped_test_cases);
            print_counts(out_, "checks.report.count.assertions", totals.assertions, skipped_assertions);
        }
        out_ << std::flush;
    }

  private:
    std::ostream& out_;
    Record record_;
    std::string name_;
    int lesson_ = 0;
    std::vector<std::string> failures_;
    std::vector<std::string> warnings_;
    int cases_ = 0;
    int skipped_cases_ = 0;  // skipped on this machine, and not failed
};

}  // namespace
}  // namespace warpdrill::report

// ---- the adapter: the one place that knows Catch2's version -----------------------------

#if defined(WARPDRILL_CATCH2_V2)

class WarpdrillReporter : public Catch::StreamingReporterBase<WarpdrillReporter> {
  public:
    explicit WarpdrillReporter(const Catch::ReporterConfig& config)
        : StreamingReporterBase(config), learner_(stream) {}
    static std::string getDescription() { return "each failure as its check wrote it, unwrapped"; }
    static std::set<Catch::Verbosity> getSupportedVerbosities() {
        return {Catch::Verbosity::Quiet, Catch::Verbosity::Normal, Catch::Verbosity::High};
    }

    void noMatchingTestCases(const std::string& spec) override { learner_.no_test_case_matched(spec); }
    void testCaseStarting(const Catch::TestCaseInfo& info) override {
        StreamingReporterBase::testCaseStarting(info);
        learner_.test_case_starting(info.name, info.tagsAsString());
    }
    void assertionStarting(const Catch::AssertionInfo&) override {}
    bool assertionEnded(const Catch::AssertionStats& stats) override {
        learner_.assertion_ended(stats);
        return true;
    }
    void testCaseEnded(const Catch::TestCaseStats& stats) override {
        learner_.test_case_ended();
        StreamingReporterBase::testCaseEnded(stats);
    }
    void testRunEnded(const Catch::TestRunStats& stats) override {
        learner_.test_run_ended(stats.totals, 0, 0);
        StreamingReporterBase::testRunEnded(stats);
    }

  private:
    warpdrill::report::Learner learner_;
};

#else

class WarpdrillReporter : public Catch::StreamingReporterBase {
  public:
    explicit WarpdrillReporter(Catch::ReporterConfig&& config)
        : StreamingReporterBase(std::move(config)), learner_(m_stream) {}
    static std::string getDescription() { return "each failure as its check wrote it, unwrapped"; }

    void noMatchingTestCases(Catch::StringRef spec) override {
        learner_.no_test_case_matched(static_cast<std::string>(spec));
    }
    void testCaseStarting(const Catch::TestCaseInfo& info) override {
        StreamingReporterBase::testCaseStarting(info);
        learner_.test_case_starting(info.name, info.tagsAsString());
    }
    void assertionEnded(const Catch::AssertionStats& stats) override { learner_.assertion_ended(stats); }
    void testCaseEnded(const Catch::TestCaseStats& stats) override {
        learner_.test_case_ended();
        StreamingReporterBase::testCaseEnded(stats);
    }
    void testRunEnded(const Catch::TestRunStats& stats) override {
        learner_.test_run_ended(stats.totals, stats.totals.testCases.skipped,
                                stats.totals.assertions.skipped);
        StreamingReporterBase::testRunEnded(stats);
    }

  private:
    warpdrill::report::Learner learner_;
};

#endif

CATCH_REGISTER_REPORTER("warpdrill", WarpdrillReporter)

#if !defined(WARPDRILL_CATCH2_V2)  // Catch2 2's is in catch2_v2.cpp, with its Session
int run_catch_session(int argc, char* argv[]) {
    Catch::Session session;
    if (const int error = session.applyCommandLine(argc, argv)) return error;
    // Catch2 3 reads its default reporter from its own build; ours applies
    // unless the command line named one.
    if (session.configData().reporterSpecifications.empty())
        session.configData().reporterSpecifications.push_back({"warpdrill", {}, {}, {}});
    return session.run();
}
#endif

int main(int argc, char* argv[]) {
    const int status = run_catch_session(argc, argv);
    return status == 0 && warpdrill::report::every_case_skipped ? warpdrill::check_record::kSkippedExitCode : status;
}
