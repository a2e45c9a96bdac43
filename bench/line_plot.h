// The benchmarks' figures: a value against a size, log2 of the size on x,
// one line per series, as an SVG file.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace warpdrill::bench {

struct Series {
    std::string name;
    std::vector<std::pair<std::size_t, double>> points;  // (size, value)
};

// Sizes from 2^min_log to 2^max_log, values from 0 to the largest.
inline void write_line_plot(const std::string& path, const std::string& title, const std::string& x_label,
                            const std::vector<Series>& series, int min_log, int max_log) {
    double max_value = 1;
    for (const Series& line : series)
        for (const auto& point : line.points) max_value = std::max(max_value, point.second);
    const double width = 760, height = 440, left = 70, right = 200, top = 40, bottom = 50;
    auto x = [&](std::size_t n) {
        return left + (std::log2(static_cast<double>(n)) - min_log) / (max_log - min_log) * (width - left - right);
    };
    auto y = [&](double value) { return top + (1 - value / max_value) * (height - top - bottom); };
    const char* colours[] = {"#bbbbbb", "#999999", "#777777", "#1f77b4", "#2ca02c",
                             "#9467bd", "#ff7f0e", "#d62728", "#000000", "#8c564b"};
    std::ofstream svg(path);
    svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
        << "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" "
           "fill=\"white\"/>\n";
    svg << "<text x=\"" << left << "\" y=\"22\" font-size=\"14\">" << title << "</text>\n";
    for (int p = min_log; p <= max_log; p += 2) {
        svg << "<line x1=\"" << x(std::size_t{1} << p) << "\" x2=\"" << x(std::size_t{1} << p) << "\" y1=\""
            << top << "\" y2=\"" << height - bottom << "\" stroke=\"#eee\"/><text x=\""
            << x(std::size_t{1} << p) - 12 << "\" y=\"" << height - bottom + 18 << "\">2^" << p << "</text>\n";
    }
    for (int g = 0; g <= 4; ++g) {
        const double value = max_value * g / 4;
        svg << "<line x1=\"" << left << "\" x2=\"" << width - right << "\" y1=\"" << y(value) << "\" y2=\""
            << y(value) << "\" stroke=\"#eee\"/><text x=\"8\" y=\"" << y(value) + 4 << "\">"
            << static_cast<int>(value) << "</text>\n";
    }
    svg << "<text x=\"" << (width - right) / 2 << "\" y=\"" << height - 12 << "\">" << x_label << "</text>\n";
    for (std::size_t k = 0; k < series.size(); ++k) {
        std::string points;
        for (const auto& [n, value] : series[k].points) {
            points += std::to_string(x(n)) + "," + std::to_string(y(value)) + " ";
        }
        const char* colour = colours[k % std::size(colours)];
        svg << "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" << colour << "\" points=\"" << points
            << "\"/>\n";
        svg << "<text x=\"" << width - right + 10 << "\" y=\"" << top + 16 * k + 10 << "\" fill=\"" << colour
            << "\">" << series[k].name << "</text>\n";
    }
    svg << "</svg>\n";
}

}  // namespace warpdrill::bench
