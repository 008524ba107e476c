using BLite.Bson;
using BLite.Bson.Mapping;
using BLite.Core.Collections;

namespace BLite.Serialization;

/// <summary>
/// A collection's id rules: the native ones of <see cref="IdValues{TId}"/>, or, for an id type
/// stored through an <see cref="IdConverter{TId}"/>, the same rules applied to its key (a Guid key
/// left empty is generated and converted back). The native path stays free of conversions.
/// </summary>
internal sealed class IdPolicy<TId>
{
    private readonly IdConverter<TId>? _converter;
    private readonly Type? _keyType;

    public IdPolicy(IdConverter<TId>? converter)
    {
        _converter = converter;
        _keyType = converter?.KeyType;
        CanGenerate = converter is null
            ? IdValues<TId>.CanGenerate
            : _keyType == typeof(ObjectId) || _keyType == typeof(Guid) || _keyType == typeof(int) || _keyType == typeof(long);
        UsesSequence = converter is null ? IdValues<TId>.UsesSequence : _keyType == typeof(int) || _keyType == typeof(long);
    }

    public bool CanGenerate { get; }

    /// <summary>The stored key's type: <typeparamref name="TId"/> itself, or the converter's key type.</summary>
    public Type KeyType => _keyType ?? typeof(TId);

    /// <summary>The stored key of an id (the id itself as a BSON value, or its converted key).</summary>
    public BsonValue ToKey(TId id)
    {
        if (id is null)
        {
            throw new ArgumentNullException(nameof(id), "A document id cannot be null.");
        }

        return _converter is null ? IdValues<TId>.ToBsonValue(id) : _converter.ToKey(id);
    }

    public bool UsesSequence { get; }

    public bool IsUnassigned(TId id)
    {
        if (_converter is null)
        {
            return IdValues<TId>.IsUnassigned(id);
        }

        if (id is null)
        {
            return true;
        }

        var key = _converter.ToKey(id);
        return key.Type switch
        {
            BsonType.ObjectId => key.AsObjectId == ObjectId.Empty,
            BsonType.Binary => key.AsGuid == Guid.Empty,
            BsonType.Int32 => key.AsInt32 == 0,
            BsonType.Int64 => key.AsInt64 == 0,
            _ => false,
        };
    }

    public TId NewRandom()
    {
        if (_converter is null)
        {
            return IdValues<TId>.NewRandom();
        }

        return _keyType == typeof(ObjectId) ? _converter.FromKey(ObjectId.NewObjectId()) : _converter.FromKey(Guid.CreateVersion7());
    }

    public TId FromSequence(long value)
    {
        if (_converter is null)
        {
            return IdValues<TId>.FromSequence(value);
        }

        return _keyType == typeof(int) ? _converter.FromKey(checked((int)value)) : _converter.FromKey(value);
    }

    /// <summary>The same key as <see cref="EncodeKey"/>, inline when the id is native and not a long string.</summary>
    public PrimaryKeyBytes EncodeKeyBytes(TId id) =>
        _converter is null ? IdValues<TId>.EncodeKeyBytes(id) : PrimaryKeyBytes.FromArray(EncodeKey(id));

    /// <summary>The id whose stored <c>_id</c> value is <paramref name="value"/>.</summary>
    public TId FromBsonValue(BsonValue value) => _converter is null ? IdValues<TId>.FromBsonValue(value) : _converter.FromKey(value);

    /// <summary>The encoded primary key of an id, as the collections layer keys <c>_id</c>.</summary>
    public byte[] EncodeKey(TId id)
    {
        if (_converter is null)
        {
            return IdValues<TId>.EncodeKey(id);
        }

        if (id is null)
        {
            throw new ArgumentNullException(nameof(id), "A document id cannot be null.");
        }

        return IndexKeys.EncodeId(_converter.ToKey(id));
    }
}
