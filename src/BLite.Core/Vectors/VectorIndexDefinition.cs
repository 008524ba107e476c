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
        ArgumentOutOfRangeException.ThrowIfLessThan(dimensions, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(dimensions, MaxDimensions);
        if (!Enum.IsDefined(metric))
        {
            throw new ArgumentOutOfRangeException(nameof(metric), metric, "Unknown vector metric.");
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(m, 2);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(m, 100);
        ArgumentOutOfRangeException.ThrowIfLessThan(efConstruction, m);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(efConstruction, 4096);
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

    public override string ToString() =>
        $"{Name} ({FieldPath}) vector {Dimensions}d {Metric}, M {M}, efConstruction {EfConstruction}";
}
