// warpdrill profile's tables: one lesson's counts beside ncu's, two lessons
// side by side, JSON for tools and the book, and ncu's alone. Each row says
// what it counts, and carries ncu's metric name only where it counts what
// that metric counts.
#pragma once

#include <string>
#include <vector>

#include "commands.h"
#include "profiled.h"

namespace warpdrill::runner {

// One lesson's table, two side by side, or JSON for tools and the book.
void print_profiles(const std::vector<Profiled>& profiled, const ProfileOptions& options, const GpuSpec& gpu,
                    const App& app, const NcuTable* ncu);

// ncu's rows alone, where the CPU backend cannot count beside them; as JSON,
// with why there is no model.
void print_ncu_only(const Lesson& lesson, const NcuTable& table);
void print_ncu_only_json(const std::vector<const Lesson*>& lessons, const NcuTable& table,
                         const std::string& no_model);

// The ncu metrics the rows quote.
std::vector<std::string> row_ncu_metrics();

// "shared stores: bank conflicts 1,425,408 -> 0; ...; modelled time 21.5 -> 20.4 us"
std::string what_moved(const Profiled& from, const Profiled& to);

// "2^20 floats", "1,000,003 floats"
std::string floats_text(long long floats);

}  // namespace warpdrill::runner
