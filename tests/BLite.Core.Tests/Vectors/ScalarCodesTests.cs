using BLite.Core.Vectors;

namespace BLite.Core.Tests.Vectors;

public sealed class ScalarCodesTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(15)]
    [InlineData(16)]
    [InlineData(31)]
    [InlineData(128)]
    [InlineData(385)]
    public void The_SIMD_kernels_equal_a_plain_loop_at_every_length(int length)
    {
        var random = new Random(length);
        var a = new byte[length];
        var b = new byte[length];
        random.NextBytes(a);
        random.NextBytes(b);
        a[0] = byte.MaxValue;
        b[0] = 0;

        Assert.Equal(a.Zip(b, (x, y) => (x - y) * (x - y)).Sum(), ScalarCodes.SquaredDifference(a, b));
        Assert.Equal(a.Zip(b, (x, y) => x * y).Sum(), ScalarCodes.DotProduct(a, b));
    }

    [Fact]
    public void The_kernels_hold_the_largest_sums_of_the_dimension_limit()
    {
        var full = Enumerable.Repeat(byte.MaxValue, VectorIndexDefinition.MaxDimensions).ToArray();
        var empty = new byte[VectorIndexDefinition.MaxDimensions];

        Assert.Equal(255 * 255 * VectorIndexDefinition.MaxDimensions, ScalarCodes.SquaredDifference(full, empty));
        Assert.Equal(255 * 255 * VectorIndexDefinition.MaxDimensions, ScalarCodes.DotProduct(full, full));
    }

    [Theory]
    [InlineData(VectorMetric.Euclidean)]
    [InlineData(VectorMetric.DotProduct)]
    public void Quantized_distances_rank_vectors_as_the_exact_ones_do_up_to_the_step(VectorMetric metric)
    {
        const int dimensions = 64;
        const int count = 200;
        var data = new GaussianClusters(seed: 23, dimensions);
        var vectors = new float[count * dimensions];
        for (var i = 0; i < count; i++)
        {
            data.Next().CopyTo(vectors, i * dimensions);
        }

        var codes = ScalarCodes.Build(vectors, count, dimensions, metric);
        var query = data.Next();
        var encoded = new byte[dimensions];
        codes.Encode(query, encoded);
        var byCode = Enumerable.Range(0, count).OrderBy(slot => codes.Distance(encoded, slot)).Take(10).ToList();
        var exact = Enumerable.Range(0, count).OrderBy(slot => VectorDistance.Compute(metric, query, vectors.AsSpan(slot * dimensions, dimensions))).Take(10).ToList();

        Assert.True(byCode.Intersect(exact).Count() >= 8, $"codes rank {byCode.Intersect(exact).Count()} of the exact top 10 in their top 10");
    }

    [Fact]
    public void Identical_vectors_get_all_zero_codes_and_equal_distances()
    {
        var vectors = Enumerable.Repeat(0.5f, 3 * 8).ToArray();
        var codes = ScalarCodes.Build(vectors, 3, 8, VectorMetric.Euclidean);
        var encoded = new byte[8];
        codes.Encode(vectors.AsSpan(0, 8), encoded);

        Assert.All(encoded, code => Assert.Equal(0, code));
        Assert.Equal(0f, codes.Distance(encoded, 2));
    }
}
