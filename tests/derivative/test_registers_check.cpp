// Text 000's registers question on any machine: the model's registers per thread for the 3D 7-,
// 9- and 27-point stencils (analysis/model.h) against ptxas's count for kernels written to those
// stencils (fixtures/register_queues.cuh), compiled by NVRTC to an sm_90 cubin and read from the
// ELF (analysis/registers_check.h states the tolerance and why).
#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <regex>

#include "analysis/registers_check.h"
#include "tests/derivative/registers_fixture.h"

using namespace stencil;
using namespace stencil::analysis;

namespace {
// The resources of each case, in cases() order.
std::vector<CubinResources> resources_of(const CubinResult& cubin) {
    const auto all = cubin_resources(cubin.cubin);
    std::vector<CubinResources> out;
    for (const auto& c : registers_fixture::cases()) out.push_back(all.at(cubin.lowered_name(c.expression)));
    return out;
}
}  // namespace

TEST_CASE("registers: the model's count against NVRTC's sm_90 cubin", "[analysis][registers]") {
    const CubinResult& cubin = registers_fixture::cubin();
    INFO(cubin.log);
    REQUIRE(cubin.ok);
    const auto cases = registers_fixture::cases();
    const auto res = resources_of(cubin);
    REQUIRE(res.size() == 3);
    // the model's answers: queues of 3, 5 and 27 values
    CHECK(cases[0].model.queue_registers == 3);
    CHECK(cases[1].model.queue_registers == 5);
    CHECK(cases[2].model.queue_registers == 27);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const RegisterCheck check = check_registers(cases[i].model, res[i].registers);
        std::printf("%s\n", check.summary().c_str());
        INFO(check.summary());
        CHECK(check.ok);
        CHECK(res[i].frame_bytes == 0);  // nothing spilled: the count is the whole story
    }
}

TEST_CASE("registers: capped at 24, the 27-point queue spills and the 7- and 9-point ones fit",
          "[analysis][registers]") {
    // ptxas does not minimise registers, so the default counts carry a loose overhead; a budget is
    // the compiler's sharper answer. 24 (ptxas's floor for sm_90) holds the star kernels'
    // 3 or 5 queued values with their overhead, not the box's 27.
    const CubinResult capped = compile_to_cubin(registers_fixture::request({"--maxrregcount=24"}), "sm_90");
    INFO(capped.log);
    REQUIRE(capped.ok);
    const auto res = resources_of(capped);
    for (const auto& r : res) CHECK(r.registers <= 24);
    CHECK(res[0].frame_bytes == 0);
    CHECK(res[1].frame_bytes == 0);
    CHECK(res[2].frame_bytes > 0);
}

TEST_CASE("registers: the ELF reader agrees with ptxas's own report", "[analysis][registers]") {
    // An independent reading of the same compile: ptxas's verbose log (--ptxas-options=-v) names
    // each entry, its stack frame and its registers in words; the ELF reader reads the attributes.
    const CubinResult verbose = compile_to_cubin(registers_fixture::request({"--ptxas-options=-v"}), "sm_90");
    REQUIRE(verbose.ok);
    const std::string& log = verbose.log;
    INFO(log);
    // ptxas info    : Compiling entry function '_ZN8regcheck9box_queueEPKfPfiii' for 'sm_90'
    // ptxas info    : Function properties for _ZN8regcheck9box_queueEPKfPfiii
    //     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
    // ptxas info    : Used 32 registers, used 0 barriers
    const std::regex entry(R"(Compiling entry function '([^']+)'[\s\S]*?(\d+) bytes stack frame[\s\S]*?Used (\d+) registers)");
    std::map<std::string, std::pair<int, long long>> theirs, ours;
    for (auto it = std::sregex_iterator(log.begin(), log.end(), entry); it != std::sregex_iterator(); ++it)
        theirs[(*it)[1]] = {std::stoi((*it)[3]), std::stoll((*it)[2])};
    for (const auto& [name, r] : cubin_resources(verbose.cubin)) ours[name] = {r.registers, r.frame_bytes};
    REQUIRE(theirs.size() == 3);
    CHECK(theirs == ours);
}

TEST_CASE("registers: the ELF reader refuses what is not a cubin", "[analysis][registers]") {
    const std::vector<unsigned char> junk(100, 0x41);
    CHECK_THROWS_WITH(cubin_resources(junk), Catch::Contains("not an ELF"));
    const CubinResult& cubin = registers_fixture::cubin();
    REQUIRE(cubin.ok);
    const std::vector<unsigned char> cut(cubin.cubin.begin(), cubin.cubin.begin() + 80);
    CHECK_THROWS(cubin_resources(cut));
}
