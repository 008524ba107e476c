using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace BLite.Core.Vectors;

/// <summary>
/// Scalar (8-bit) quantization of a walk copy's vectors: each component becomes one byte,
/// <c>code = round((x − offset[d]) / step)</c>, with a per-dimension offset (the smallest value of
/// that dimension) and one step for all dimensions (the widest dimension's range over 255).
/// </summary>
/// <remarks>
/// A shared step keeps every quantized distance a plain integer sum over the codes (a Euclidean
/// distance is <c>step²·Σ(a−b)²</c>; a dot product is a per-vector constant plus
/// <c>step²·Σ a·b</c>), so the walk compares a quarter of the bytes of float32 vectors with
/// integer SIMD. The codes only rank candidates during the walk; the results are re-ranked with
/// the exact float32 distances (<see cref="HnswWalkCopy"/>), so a returned distance is always exact.
/// </remarks>
internal sealed class ScalarCodes
{
    private readonly byte[] _codes;
    private readonly float[] _offsets;
    private readonly float _step;
    private readonly int _dimensions;
    private readonly bool _euclidean;

    /// <summary>Per vector, <c>Σ offset[d]·code[d]</c>: its share of a quantized dot product that depends on it alone.</summary>
    private readonly float[]? _bias;

    private ScalarCodes(byte[] codes, float[] offsets, float step, int dimensions, bool euclidean, float[]? bias)
    {
        _codes = codes;
        _offsets = offsets;
        _step = step;
        _dimensions = dimensions;
        _euclidean = euclidean;
        _bias = bias;
    }

    public long Bytes => _codes.Length + ((_bias?.Length ?? 0) * sizeof(float)) + (_offsets.Length * sizeof(float));

    /// <summary>Quantizes <paramref name="count"/> vectors stored one after the other in <paramref name="vectors"/>.</summary>
    public static ScalarCodes Build(float[] vectors, int count, int dimensions, VectorMetric metric)
    {
        var offsets = new float[dimensions];
        var highest = new float[dimensions];
        Array.Fill(offsets, float.MaxValue);
        Array.Fill(highest, float.MinValue);
        for (var slot = 0; slot < count; slot++)
        {
            var vector = vectors.AsSpan(slot * dimensions, dimensions);
            for (var d = 0; d < dimensions; d++)
            {
                offsets[d] = Math.Min(offsets[d], vector[d]);
                highest[d] = Math.Max(highest[d], vector[d]);
            }
        }

        var widest = 0f;
        for (var d = 0; d < dimensions; d++)
        {
            if (count == 0)
            {
                offsets[d] = 0;
            }
            else
            {
                widest = Math.Max(widest, highest[d] - offsets[d]);
            }
        }

        // All vectors equal (or none): every code is 0 and any positive step is exact.
        var step = widest > 0 && float.IsFinite(widest) ? widest / byte.MaxValue : 1f;
        var euclidean = metric == VectorMetric.Euclidean;
        var codes = new byte[checked(count * dimensions)];
        var bias = euclidean ? null : new float[count];
        var quantizer = new ScalarCodes(codes, offsets, step, dimensions, euclidean, bias);
        for (var slot = 0; slot < count; slot++)
        {
            var code = codes.AsSpan(slot * dimensions, dimensions);
            quantizer.Encode(vectors.AsSpan(slot * dimensions, dimensions), code);
            if (bias is not null)
            {
                bias[slot] = quantizer.OffsetDot(code);
            }
        }

        return quantizer;
    }

    /// <summary>Writes the codes of <paramref name="vector"/>; components outside the indexed range are clamped.</summary>
    public void Encode(ReadOnlySpan<float> vector, Span<byte> destination)
    {
        for (var d = 0; d < _dimensions; d++)
        {
            destination[d] = (byte)Math.Clamp(MathF.Round((vector[d] - _offsets[d]) / _step), 0f, byte.MaxValue);
        }
    }

    /// <summary>
    /// A quantized distance of the encoded query to the vector in <paramref name="slot"/>: it ranks
    /// vectors like the metric's distance (up to quantization), but is not on the metric's scale.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public float Distance(ReadOnlySpan<byte> query, int slot)
    {
        var code = _codes.AsSpan(slot * _dimensions, _dimensions);
        return _euclidean
            ? SquaredDifference(query, code)
            : -(_bias![slot] + (_step * DotProduct(query, code)));
    }

    /// <summary>The address of a vector's codes, to prefetch before its distance is needed.</summary>
    public ref byte CodesOf(int slot) => ref _codes[slot * _dimensions];

    private float OffsetDot(ReadOnlySpan<byte> code)
    {
        var sum = 0f;
        for (var d = 0; d < code.Length; d++)
        {
            sum += _offsets[d] * code[d];
        }

        return sum;
    }

    /// <summary>Σ(a−b)² over bytes; at most 255²·16,000 (the dimension limit), so an int holds it.</summary>
    internal static int SquaredDifference(ReadOnlySpan<byte> a, ReadOnlySpan<byte> b) => SumOfProducts(a, b, differences: true);

    /// <summary>Σ a·b over bytes; at most 255²·16,000, so an int holds it.</summary>
    internal static int DotProduct(ReadOnlySpan<byte> a, ReadOnlySpan<byte> b) => SumOfProducts(a, b, differences: false);

    /// <summary>Σ x·y where (x, y) is (a−b, a−b) with <paramref name="differences"/>, else (a, b).</summary>
    private static int SumOfProducts(ReadOnlySpan<byte> a, ReadOnlySpan<byte> b, bool differences)
    {
        ref var left = ref MemoryMarshal.GetReference(a);
        ref var right = ref MemoryMarshal.GetReference(b);
        var i = 0;
        var sum = 0;
        if (Avx2.IsSupported)
        {
            var total = Vector256<int>.Zero;
            for (; i <= a.Length - Vector256<byte>.Count; i += Vector256<byte>.Count)
            {
                var (aLow, aHigh) = Vector256.Widen(Vector256.LoadUnsafe(ref left, (nuint)i));
                var (bLow, bHigh) = Vector256.Widen(Vector256.LoadUnsafe(ref right, (nuint)i));
                var (xLow, yLow) = Factors(aLow.AsInt16(), bLow.AsInt16(), differences);
                var (xHigh, yHigh) = Factors(aHigh.AsInt16(), bHigh.AsInt16(), differences);
                total += Avx2.MultiplyAddAdjacent(xLow, yLow) + Avx2.MultiplyAddAdjacent(xHigh, yHigh);
            }

            sum = Vector256.Sum(total);
        }
        else if (Vector128.IsHardwareAccelerated)
        {
            var total = Vector128<int>.Zero;
            for (; i <= a.Length - Vector128<byte>.Count; i += Vector128<byte>.Count)
            {
                var (aLow, aHigh) = Vector128.Widen(Vector128.LoadUnsafe(ref left, (nuint)i));
                var (bLow, bHigh) = Vector128.Widen(Vector128.LoadUnsafe(ref right, (nuint)i));
                var (xLow, yLow) = Factors(aLow.AsInt16(), bLow.AsInt16(), differences);
                var (xHigh, yHigh) = Factors(aHigh.AsInt16(), bHigh.AsInt16(), differences);
                total += ProductsOf(xLow, yLow) + ProductsOf(xHigh, yHigh);
            }

            sum = Vector128.Sum(total);
        }

        for (; i < a.Length; i++)
        {
            var (x, y) = differences ? (a[i] - b[i], a[i] - b[i]) : (a[i], b[i]);
            sum += x * y;
        }

        return sum;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static (Vector256<short> X, Vector256<short> Y) Factors(Vector256<short> a, Vector256<short> b, bool differences) =>
        differences ? (a - b, a - b) : (a, b);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static (Vector128<short> X, Vector128<short> Y) Factors(Vector128<short> a, Vector128<short> b, bool differences) =>
        differences ? (a - b, a - b) : (a, b);

    private static Vector128<int> ProductsOf(Vector128<short> a, Vector128<short> b)
    {
        var (aLow, aHigh) = Vector128.Widen(a);
        var (bLow, bHigh) = Vector128.Widen(b);
        return (aLow * bLow) + (aHigh * bHigh);
    }
}
