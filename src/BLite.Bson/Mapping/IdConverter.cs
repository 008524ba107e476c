namespace BLite.Bson.Mapping;

/// <summary>
/// Converts an application id type (<c>OrderId</c>, <c>CustomerCode</c>) to and from a key type
/// BLite stores natively, so the stored <c>_id</c> is the key and is indexed and ordered like it.
/// Generated mappers of documents with such an id take one in their constructor.
/// </summary>
/// <typeparam name="TId">The document's id type.</typeparam>
public abstract class IdConverter<TId>
{
    private protected IdConverter()
    {
    }

    /// <summary>The stored key type: ObjectId, Guid, int, long or string.</summary>
    public abstract Type KeyType { get; }

    /// <summary>How the key is stored.</summary>
    public BsonType KeyBsonType => KeyType == typeof(ObjectId) ? BsonType.ObjectId
        : KeyType == typeof(Guid) ? BsonType.Binary
        : KeyType == typeof(int) ? BsonType.Int32
        : KeyType == typeof(long) ? BsonType.Int64
        : BsonType.String;

    /// <summary>The stored key of <paramref name="id"/>.</summary>
    public abstract BsonValue ToKey(TId id);

    /// <summary>The id whose stored key is <paramref name="key"/>.</summary>
    public abstract TId FromKey(BsonValue key);

    /// <summary>Writes <paramref name="id"/> as its key, header included.</summary>
    public void Write(TId id, ref BsonSpanWriter writer, ushort fieldId, BsonFieldDictionary dictionary)
    {
        var key = ToKey(id);
        writer.WriteFieldHeader(key.Type, fieldId);
        key.WriteTo(ref writer, dictionary);
    }

    /// <summary>Reads a stored key whose header (<paramref name="type"/>) was just read, as an id.</summary>
    public TId Read(ref BsonSpanReader reader, BsonType type, BsonFieldDictionary dictionary) =>
        FromKey(BsonValue.ReadFrom(ref reader, type, dictionary));
}

/// <summary>An <see cref="IdConverter{TId}"/> from two delegates.</summary>
/// <typeparam name="TId">The document's id type.</typeparam>
/// <typeparam name="TKey">The stored key type: ObjectId, Guid, int, long or string.</typeparam>
public sealed class IdConverter<TId, TKey> : IdConverter<TId>
{
    private readonly Func<TId, TKey> _toKey;
    private readonly Func<TKey, TId> _fromKey;

    public IdConverter(Func<TId, TKey> toKey, Func<TKey, TId> fromKey)
    {
        ArgumentNullException.ThrowIfNull(toKey);
        ArgumentNullException.ThrowIfNull(fromKey);
        if (typeof(TKey) != typeof(ObjectId) && typeof(TKey) != typeof(Guid) && typeof(TKey) != typeof(int)
            && typeof(TKey) != typeof(long) && typeof(TKey) != typeof(string))
        {
            throw new ArgumentException($"An id of type {typeof(TId).Name} cannot be stored as {typeof(TKey).Name}: the key type must be ObjectId, Guid, int, long or string.", nameof(toKey));
        }

        _toKey = toKey;
        _fromKey = fromKey;
    }

    public override Type KeyType => typeof(TKey);

    public override BsonValue ToKey(TId id)
    {
        if (id is null)
        {
            throw new ArgumentNullException(nameof(id), "A document id cannot be null.");
        }

        return _toKey(id) switch
        {
            ObjectId objectId => objectId,
            Guid guid => guid,
            int int32 => int32,
            long int64 => int64,
            string text => text,
            _ => throw new ArgumentException($"The id converter of {typeof(TId).Name} returned a null key.", nameof(id)),
        };
    }

    public override TId FromKey(BsonValue key) => _fromKey(key.Type switch
    {
        BsonType.ObjectId when typeof(TKey) == typeof(ObjectId) => (TKey)(object)key.AsObjectId,
        BsonType.Binary when typeof(TKey) == typeof(Guid) => (TKey)(object)key.AsGuid,
        BsonType.Int32 when typeof(TKey) == typeof(int) => (TKey)(object)key.AsInt32,
        BsonType.Int64 when typeof(TKey) == typeof(long) => (TKey)(object)key.AsInt64,
        BsonType.String when typeof(TKey) == typeof(string) => (TKey)(object)key.AsString,
        _ => throw new BsonMappingException($"A stored {key.Type} key cannot be read as a {typeof(TId).Name} id stored as {typeof(TKey).Name}."),
    });
}
