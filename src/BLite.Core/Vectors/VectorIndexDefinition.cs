using BLite.Core.Collections;


namespace BLite.Core.Vectors;

/// <summary>
/// A vector index: an HNSW graph over the float32 vectors found at one field path. Documents
/// whose path is missing or null are simply not in the index.
/// </summary>
/// <param name="M">Neighbours kept per node on the upper layers (twice as many on layer 0).</param>
/// <param name="EfConstruction">Candidates considered when linking a new node.</param>
public sealed record VectorIndexDefinition
{
    public const int DefaultM = 16;
    public const int DefaultEfConstruction = 200;
    public const int MaxDimensions = 16_000;

    public VectorIndexDefinition(string name, string fieldPath, int dimensions, VectorMetric metric, int m = DefaultM, int efConstruction = DefaultEfConstruction)
    {
        CatalogNames.Validate(name, "index name");
        ArgumentNullException.ThrowIfNull(fieldPath);
        Query.FieldPath.ParseIndexPath(fieldPath);
        Require(dimensions is >= 1 and <= MaxDimensions, name, fieldPath, $"dimensions must be 1 to {MaxDimensions}, not {dimensions}");
        Require(Enum.IsDefined(metric), name, fieldPath, $"the metric {(int)metric} is not one of Cosine, DotProduct, Euclidean");
        Require(m is >= 2 and <= 100, name, fieldPath, $"m must be 2 to 100, not {m}");
        Require(efConstruction >= m && efConstruction <= 4096, name, fieldPath, $"efConstruction must be m ({m}) to 4096, not {efConstruction}");
        Name = name;
        FieldPath = fieldPath;
        Dimensions = dimensions;
        Metric = metric;
        M = m;
        EfConstruction = efConstruction;
    }

    public string Name { get; }

    public string FieldPath { get; }

    public int Dimensions { get; }

    public VectorMetric Metric { get; }

    public int M { get; }

    public int EfConstruction { get; }

    private static void Require(bool valid, string name, string fieldPath, string problem)
    {
        if (!valid)
        {
            throw new BLiteVectorException($"Vector index '{name}' on '{fieldPath}': {problem}.");
        }
    }

    public override string ToString() =>
        $"{Name} ({FieldPath}) vector {Dimensions}d {Metric}, M {M}, efConstruction {EfConstruction}";
}
