using System.Collections.Concurrent;
using System.Diagnostics.CodeAnalysis;

namespace BLite.Bson;

/// <summary>
/// Maps field names to the 2-byte ids stored in C-BSON elements, and back. Names are
/// case-sensitive (ordinal). Id 0 is always "_id". Lookups never lock; additions are serialized.
/// </summary>
public sealed class BsonFieldDictionary
{
    public const string IdFieldName = "_id";

    private readonly ConcurrentDictionary<string, ushort> _idsByName = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, ushort>.AlternateLookup<ReadOnlySpan<char>> _idsBySpan;
    private readonly Lock _addGate = new();

    // Readers take _count first and _names second; the writer stores a name, then publishes the
    // array, then the count. So any id below the count a reader saw is present in the array it sees.
    private string[] _names = new string[64];
    private int _count;

    public BsonFieldDictionary()
    {
        _idsBySpan = _idsByName.GetAlternateLookup<ReadOnlySpan<char>>();
        GetOrAdd(IdFieldName);
    }

    /// <summary>How many names the dictionary holds (ids 0 to Count - 1).</summary>
    public int Count => Volatile.Read(ref _count);

    /// <summary>Rebuilds a dictionary from names listed in id order (as persisted); the first must be "_id".</summary>
    public static BsonFieldDictionary FromNames(IEnumerable<string> namesInIdOrder)
    {
        ArgumentNullException.ThrowIfNull(namesInIdOrder);
        var dictionary = new BsonFieldDictionary();
        var expectedId = 0;
        foreach (var name in namesInIdOrder)
        {
            if (expectedId == 0)
            {
                if (name != IdFieldName)
                {
                    throw new ArgumentException($"Field id 0 must be \"{IdFieldName}\"; the list starts with \"{name}\".", nameof(namesInIdOrder));
                }
            }
            else if (dictionary.GetOrAdd(name) != expectedId)
            {
                throw new ArgumentException($"The field name \"{name}\" appears twice in the list.", nameof(namesInIdOrder));
            }

            expectedId++;
        }

        return dictionary;
    }

    public ushort GetOrAdd(string name)
    {
        if (_idsByName.TryGetValue(name, out var id))
        {
            return id;
        }

        return Add(name);
    }

    public bool TryGetId(string name, out ushort id)
    {
        ArgumentNullException.ThrowIfNull(name);
        return _idsByName.TryGetValue(name, out id);
    }

    public bool TryGetId(ReadOnlySpan<char> name, out ushort id) => _idsBySpan.TryGetValue(name, out id);

    public bool TryGetName(ushort id, [NotNullWhen(true)] out string? name)
    {
        var count = Volatile.Read(ref _count);
        var names = Volatile.Read(ref _names);
        if (id < count)
        {
            name = names[id];
            return true;
        }

        name = null;
        return false;
    }

    /// <summary>The names with ids from <paramref name="firstId"/> up, in id order (to persist new names).</summary>
    public IReadOnlyList<string> GetNamesFrom(int firstId)
    {
        var count = Volatile.Read(ref _count);
        var names = Volatile.Read(ref _names);
        ArgumentOutOfRangeException.ThrowIfNegative(firstId);
        if (firstId >= count)
        {
            return [];
        }

        return names.AsSpan(firstId, count - firstId).ToArray();
    }

    private ushort Add(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        lock (_addGate)
        {
            if (_idsByName.TryGetValue(name, out var existing))
            {
                return existing;
            }

            var count = _count;
            if (count >= BsonLimits.MaxFieldNames)
            {
                throw new InvalidOperationException(
                    $"The field-name dictionary is full: it already holds {BsonLimits.MaxFieldNames} distinct names (ids 0–65535), so \"{name}\" cannot be added.");
            }

            var names = _names;
            if (count == names.Length)
            {
                var grown = new string[Math.Min(names.Length * 2, BsonLimits.MaxFieldNames)];
                names.CopyTo(grown, 0);
                names = grown;
            }

            names[count] = name;
            Volatile.Write(ref _names, names);
            Volatile.Write(ref _count, count + 1);
            var id = (ushort)count;
            _idsByName[name] = id;
            return id;
        }
    }
}
