#pragma once
// The cosine-similarity heatmap of embeddings sorted by class, then subclass: Figure 2's insets
// ("heatmaps of cosine similarity between points, sorted by class and subclass"), drawn for
// trained embeddings, where the subclasses are the data's fine labels (not the atoms of a
// simulated optimum). Class boundaries are solid lines, subclass boundaries dashed.
#include <string>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

// points: d x N (columns are points). Writes STEM.csv (a header row "class,subclass,c1..cN",
// then one row per point in sorted order: its class, its subclass, its cosines), STEM.png,
// STEM.svg, STEM.gp and the paper's PDFs (STEM.pdf, STEM-2col.pdf: gnuplot_figure.hpp). Throws
// InvalidArgument("points") when the labels' sizes differ from N.
void draw_embedding_heatmap(const Matrix& points, const std::vector<int>& classes, const std::vector<int>& subclasses,
                            const std::string& title, const std::string& stem);

// Draws the figure again from the STEM.csv that draw_embedding_heatmap wrote (a cached run's
// embeddings are gone; the CSV holds what the figure shows): STEM.png, STEM.svg, STEM.gp and the
// PDFs; STEM.csv itself is read, never rewritten. Throws InvalidArgument("out"), naming the
// file and line when it is not such a table: the header class,subclass,c1..cN, N rows, whole
// labels, cosines in [-1, 1].
void redraw_embedding_heatmap(const std::string& title, const std::string& stem);

}  // namespace geomsim
