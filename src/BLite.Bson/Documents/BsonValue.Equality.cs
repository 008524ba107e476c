using BLite.Bson;

namespace BLite;

/// <summary>
/// Equality is structural and type-strict (Int32 1 differs from Int64 1; documents compare in
/// field order; Decimal128 compares values, so 1.0 equals 1.00). Ordering follows MongoDB's
/// cross-type order: MinKey, Undefined, Null, numbers (compared by exact value across numeric
/// types: 1 = 1L = 1.0 = 1.00m, but the double 0.1 is above the Decimal128 0.1; NaN first),
/// String and Symbol, Document, Array, Binary, ObjectId, Boolean, dates, then the BLite TimeSpan,
/// DateOnly and TimeOnly, then Timestamp, Regex, DBPointer, JavaScript, JavaScript with scope,
/// and MaxKey last.
/// </summary>
public readonly partial struct BsonValue : IEquatable<BsonValue>, IComparable<BsonValue>
{
    public bool Equals(BsonValue other)
    {
        if (Type != other.Type)
        {
            return false;
        }

        return Type switch
        {
            BsonType.Null or BsonType.Undefined or BsonType.MinKey or BsonType.MaxKey => true,
            BsonType.Double => AsDouble.Equals(other.AsDouble),
            BsonType.Decimal128 => AsDecimal128 == other.AsDecimal128,
            BsonType.String or BsonType.JavaScript or BsonType.Symbol => string.Equals((string)_reference!, (string)other._reference!, StringComparison.Ordinal),
            BsonType.Regex => AsRegex.Equals(other.AsRegex),
            BsonType.JavaScriptWithScope => AsJavaScriptWithScope.Equals(other.AsJavaScriptWithScope),
            BsonType.DbPointer => AsDbPointer.Equals(other.AsDbPointer),
            BsonType.Document => AsDocument.Equals(other.AsDocument),
            BsonType.Array => AsArray.Equals(other.AsArray),
            BsonType.Binary => _subtype == other._subtype && AsBinarySpan().SequenceEqual(other.AsBinarySpan()),
            _ => _bits == other._bits && _bits2 == other._bits2,
        };
    }

    public override bool Equals(object? obj) => obj is BsonValue other && Equals(other);

    public override int GetHashCode() => Type switch
    {
        BsonType.Null or BsonType.Undefined or BsonType.MinKey or BsonType.MaxKey => (int)_type,
        BsonType.Double => AsDouble.GetHashCode(),
        BsonType.Decimal128 => AsDecimal128.GetHashCode(),
        BsonType.String or BsonType.JavaScript or BsonType.Symbol => StringComparer.Ordinal.GetHashCode((string)_reference!),
        BsonType.Regex => AsRegex.GetHashCode(),
        BsonType.JavaScriptWithScope => AsJavaScriptWithScope.GetHashCode(),
        BsonType.DbPointer => AsDbPointer.GetHashCode(),
        BsonType.Document => AsDocument.GetHashCode(),
        BsonType.Array => AsArray.GetHashCode(),
        BsonType.Binary => HashBinary(),
        _ => HashCode.Combine(_type, _bits, _bits2),
    };

    public static bool operator ==(BsonValue left, BsonValue right) => left.Equals(right);

    public static bool operator !=(BsonValue left, BsonValue right) => !left.Equals(right);

    public int CompareTo(BsonValue other)
    {
        var rank = TypeClassOf(Type).CompareTo(TypeClassOf(other.Type));
        if (rank != 0)
        {
            return rank;
        }

        switch (Type)
        {
            case BsonType.Null or BsonType.Undefined or BsonType.MinKey or BsonType.MaxKey:
                return 0;
            case BsonType.Int32 or BsonType.Int64 or BsonType.UInt64 or BsonType.Double or BsonType.Decimal128:
                return CompareNumbers(this, other);
            case BsonType.String or BsonType.Symbol or BsonType.JavaScript:
                return string.CompareOrdinal((string)_reference!, (string)other._reference!);
            case BsonType.Timestamp:
                return AsTimestamp.CompareTo(other.AsTimestamp);
            case BsonType.Regex:
                var byPattern = string.CompareOrdinal(AsRegex.Pattern, other.AsRegex.Pattern);
                return byPattern != 0 ? byPattern : string.CompareOrdinal(AsRegex.Options, other.AsRegex.Options);
            case BsonType.DbPointer:
                var byNamespace = string.CompareOrdinal(AsDbPointer.Namespace, other.AsDbPointer.Namespace);
                return byNamespace != 0 ? byNamespace : AsDbPointer.Id.CompareTo(other.AsDbPointer.Id);
            case BsonType.JavaScriptWithScope:
                var byCode = string.CompareOrdinal(AsJavaScriptWithScope.Code, other.AsJavaScriptWithScope.Code);
                return byCode != 0 ? byCode : AsJavaScriptWithScope.Scope.CompareTo(other.AsJavaScriptWithScope.Scope);
            case BsonType.Document:
                return AsDocument.CompareTo(other.AsDocument);
            case BsonType.Array:
                return AsArray.CompareTo(other.AsArray);
            case BsonType.Binary:
                var left = AsBinarySpan();
                var right = other.AsBinarySpan();
                var byLength = left.Length.CompareTo(right.Length);
                if (byLength != 0)
                {
                    return byLength;
                }

                var bySubtype = _subtype.CompareTo(other._subtype);
                return bySubtype != 0 ? bySubtype : left.SequenceCompareTo(right);
            case BsonType.ObjectId:
                return AsObjectId.CompareTo(other.AsObjectId);
            case BsonType.Boolean:
                return AsBoolean.CompareTo(other.AsBoolean);
            case BsonType.DateTime or BsonType.DateTimeOffset or BsonType.UtcDateTime:
                return CompareInstants(this, other);
            case BsonType.TimeSpan or BsonType.DateOnly or BsonType.TimeOnly:
                return _bits.CompareTo(other._bits);
            default:
                return 0;
        }
    }

    /// <summary>
    /// The comparison class of a BSON type (numbers of every width share one, as do both kinds of
    /// instant); its number is also the type's rank in the cross-type sort order.
    /// </summary>
    public static int TypeClassOf(BsonType type) => type switch
    {
        BsonType.MinKey => -2,
        BsonType.Undefined => -1,
        BsonType.Null => 0,
        BsonType.Int32 or BsonType.Int64 or BsonType.UInt64 or BsonType.Double or BsonType.Decimal128 => 1,
        BsonType.String or BsonType.Symbol => 2,
        BsonType.Document => 3,
        BsonType.Array => 4,
        BsonType.Binary => 5,
        BsonType.ObjectId => 6,
        BsonType.Boolean => 7,
        BsonType.DateTime or BsonType.DateTimeOffset or BsonType.UtcDateTime => 8,
        BsonType.TimeSpan => 9,
        BsonType.DateOnly => 10,
        BsonType.TimeOnly => 11,
        BsonType.Timestamp => 12,
        BsonType.Regex => 13,
        BsonType.DbPointer => 14,
        BsonType.JavaScript => 15,
        BsonType.JavaScriptWithScope => 16,
        _ => 17,
    };

    private static int CompareNumbers(BsonValue left, BsonValue right)
    {
        if (left.Type is BsonType.Int32 or BsonType.Int64 or BsonType.UInt64
            && right.Type is BsonType.Int32 or BsonType.Int64 or BsonType.UInt64)
        {
            return left.ToInt128().CompareTo(right.ToInt128());
        }

        if (left.Type == BsonType.Decimal128 && right.Type == BsonType.Double)
        {
            return left.AsDecimal128.CompareTo(right.AsDouble);
        }

        if (right.Type == BsonType.Decimal128 && left.Type == BsonType.Double)
        {
            return -right.AsDecimal128.CompareTo(left.AsDouble);
        }

        if (left.Type == BsonType.Decimal128 || right.Type == BsonType.Decimal128)
        {
            return left.ToDecimal128ForOrdering().CompareTo(right.ToDecimal128ForOrdering());
        }

        // At least one double: NaN sorts below every number. Compare as doubles, and break a tie
        // exactly when the other side is an integer that the double conversion may have rounded.
        var l = left.ToDouble();
        var r = right.ToDouble();
        if (double.IsNaN(l) || double.IsNaN(r))
        {
            return double.IsNaN(l).CompareTo(double.IsNaN(r)) * -1;
        }

        var byDouble = l.CompareTo(r);
        if (byDouble != 0 || double.IsInfinity(l))
        {
            return byDouble;
        }

        if (left.Type is BsonType.Int64 or BsonType.UInt64 && right.Type == BsonType.Double)
        {
            return left.ToInt128().CompareTo((Int128)r);
        }

        if (right.Type is BsonType.Int64 or BsonType.UInt64 && left.Type == BsonType.Double)
        {
            return ((Int128)l).CompareTo(right.ToInt128());
        }

        return 0;
    }

    private static int CompareInstants(BsonValue left, BsonValue right)
    {
        var byInstant = left.UtcTicksForOrdering().CompareTo(right.UtcTicksForOrdering());
        return byInstant != 0 ? byInstant : left._bits2.CompareTo(right._bits2);
    }

    // Unspecified DateTimes are ordered as if they were UTC; Local ones by their UTC instant; a
    // UtcDateTime's milliseconds may exceed what a long of ticks holds, hence Int128.
    private Int128 UtcTicksForOrdering() => Type switch
    {
        BsonType.DateTimeOffset => _bits,
        BsonType.UtcDateTime => DateTime.UnixEpoch.Ticks + ((Int128)_bits * TimeSpan.TicksPerMillisecond),
        _ => AsDateTime is { Kind: DateTimeKind.Local } local ? local.ToUniversalTime().Ticks : AsDateTime.Ticks,
    };

    /// <summary>A Decimal128 as itself, an integer exactly (doubles are compared by <see cref="BsonDecimal128.CompareTo(double)"/>).</summary>
    private BsonDecimal128 ToDecimal128ForOrdering() => Type switch
    {
        BsonType.Decimal128 => AsDecimal128,
        BsonType.UInt64 => (ulong)_bits,
        _ => _bits,
    };

    private Int128 ToInt128() => Type == BsonType.UInt64 ? (ulong)_bits : _bits;

    private ReadOnlySpan<byte> AsBinarySpan() => AsBinary;

    private int HashBinary()
    {
        var hash = new HashCode();
        hash.Add(_subtype);
        hash.AddBytes(AsBinarySpan());
        return hash.ToHashCode();
    }
}
