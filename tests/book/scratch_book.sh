# Sourced by the book's tests that build a changed copy of it:
#   source scratch_book.sh SOURCE_DIR
# sets source_dir, and scratch, a temporary folder removed on exit whose repo/
# holds what the book reads (book/, lessons/, solutions/, results/, the H100's
# shuffle table that the figures draw, and the profile's metric table that
# names ncu's metrics), without a previous build's output.
source_dir=$(cd "$1" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/repo"
cp -r "$source_dir/book" "$source_dir/lessons" "$source_dir/solutions" "$source_dir/results" "$scratch/repo/"
mkdir -p "$scratch/repo/cpu-cuda/tests/data"
cp "$source_dir/cpu-cuda/tests/data/shuffle_truth.txt" "$scratch/repo/cpu-cuda/tests/data/"
mkdir -p "$scratch/repo/runner/profile"
cp "$source_dir/runner/profile/metrics.toml" "$scratch/repo/runner/profile/"
rm -rf "$scratch/repo/book/_build" "$scratch/repo/book/_generated"
