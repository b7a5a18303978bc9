#!/usr/bin/env bash
# Regenerates Sources/MatterClusters/Generated and Sources/MatterHome/Generated (the Home API's traits and
# device types) from the committed model file (model/matter-1.5.json):
# builds matter-model-gen, writes the Swift into a scratch directory, formats it with the toolchain's
# swift-format (.swift-format) and replaces the Generated directory with it. The same model file and
# toolchain give the same bytes; MatterClustersTests.GeneratedModelTests fails when the committed files
# are stale. How to derive the model file for a new specification version: docs/ARCHITECTURE.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
model=${1:-model/matter-1.5.json}
swift build --product matter-model-gen >/dev/null
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$(swift build --show-bin-path)/matter-model-gen" "$model" "$scratch/Generated" "$scratch/HomeGenerated"
swift format format -i --configuration .swift-format --recursive "$scratch/Generated" "$scratch/HomeGenerated"
rm -rf Sources/MatterClusters/Generated Sources/MatterHome/Generated
cp -r "$scratch/Generated" Sources/MatterClusters/Generated
cp -r "$scratch/HomeGenerated" Sources/MatterHome/Generated
echo "generate: Sources/MatterClusters/Generated and Sources/MatterHome/Generated from $model" >&2
