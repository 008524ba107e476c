namespace BLite.Core.Tests.Vectors;

/// <summary>Seeded synthetic embeddings: points drawn around random cluster centres (Box–Muller normals).</summary>
internal sealed class GaussianClusters
{
    private readonly Random _random;
    private readonly float[][] _centres;

    public GaussianClusters(int seed, int dimensions, int clusters = 16, float spread = 0.35f)
    {
        _random = new Random(seed);
        Dimensions = dimensions;
        Spread = spread;
        _centres = new float[clusters][];
        for (var c = 0; c < clusters; c++)
        {
            _centres[c] = new float[dimensions];
            for (var d = 0; d < dimensions; d++)
            {
                _centres[c][d] = Normal();
            }
        }
    }

    public int Dimensions { get; }

    public float Spread { get; }

    public float[] Next()
    {
        var centre = _centres[_random.Next(_centres.Length)];
        var point = new float[Dimensions];
        for (var d = 0; d < Dimensions; d++)
        {
            point[d] = centre[d] + (Spread * Normal());
        }

        return point;
    }

    private float Normal()
    {
        var u1 = 1.0 - _random.NextDouble();
        var u2 = _random.NextDouble();
        return (float)(Math.Sqrt(-2.0 * Math.Log(u1)) * Math.Cos(2.0 * Math.PI * u2));
    }
}
