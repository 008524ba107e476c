using BLite.Bson;

namespace BLite.Core.Query;

/// <summary>
/// The value side of a predicate: either a constant or a numbered parameter slot. Parameter slots
/// let one translated filter (and the plan chosen for it) be cached by query shape and re-run
/// with new values; the values are supplied per execution, in slot order.
/// </summary>
public readonly struct FilterOperand : IEquatable<FilterOperand>
{
    private readonly BsonValue? _constant;

    private FilterOperand(BsonValue? constant, int parameterIndex)
    {
        _constant = constant;
        ParameterIndex = parameterIndex;
    }

    /// <summary>The slot number, or -1 for a constant.</summary>
    public int ParameterIndex { get; }

    public bool IsParameter => ParameterIndex >= 0;

    /// <summary>The constant; <see cref="BsonValue.Null"/> when this is a parameter.</summary>
    public BsonValue Constant => _constant ?? BsonValue.Null;

    public static FilterOperand FromConstant(BsonValue value) => new(value, -1);

    public static FilterOperand FromParameter(int index)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        return new FilterOperand(null, index);
    }

    /// <summary>The value this operand stands for in one execution.</summary>
    public BsonValue Resolve(IReadOnlyList<BsonValue>? parameters)
    {
        if (!IsParameter)
        {
            return Constant;
        }

        if (parameters is null || ParameterIndex >= parameters.Count)
        {
            ThrowMissingParameter(ParameterIndex, parameters?.Count ?? 0);
        }

        return parameters[ParameterIndex];
    }

    public bool Equals(FilterOperand other) =>
        ParameterIndex == other.ParameterIndex && (IsParameter || Constant.Equals(other.Constant));

    public override bool Equals(object? obj) => obj is FilterOperand other && Equals(other);

    public override int GetHashCode() => IsParameter ? ParameterIndex : Constant.GetHashCode();

    public override string ToString() => IsParameter ? "@p" + ParameterIndex : FilterText.Value(Constant);

    public static implicit operator FilterOperand(BsonValue value) => FromConstant(value);

    [System.Diagnostics.CodeAnalysis.DoesNotReturn]
    private static void ThrowMissingParameter(int index, int count) =>
        throw new ArgumentException($"The query uses parameter @p{index} but only {count} parameter value(s) were supplied.");
}
