using System.Runtime.CompilerServices;
using BLite.Bson;

namespace BLite.PostgreSql.Jsonb;

/// <summary>
/// The field ids of a <see cref="BsonFieldDictionary"/> keyed by the raw UTF-8 bytes of the
/// jsonb keys that name them, so reading a row looks a key up by its bytes (a short FNV hash and a
/// byte compare) instead of transcoding it to UTF-16 and hashing the string: that lookup was a
/// large share of decoding a typed document, which names some sixty fields. A field's id never
/// changes, so entries are never invalidated. Readers on many threads share one table; an
/// addition (a name seen for the first time) publishes a new table, copy on write.
/// </summary>
internal sealed class Utf8FieldIds
{
    private static readonly ConditionalWeakTable<BsonFieldDictionary, Utf8FieldIds> ByDictionary = [];

    private readonly Lock _writeLock = new();
    private volatile Entry[] _table = new Entry[64];
    private int _count;

    public static Utf8FieldIds For(BsonFieldDictionary fields) => ByDictionary.GetValue(fields, static _ => new Utf8FieldIds());

    public bool TryGet(ReadOnlySpan<byte> key, out ushort id)
    {
        var table = _table;
        var mask = table.Length - 1;
        for (var slot = (int)Hash(key) & mask; ; slot = (slot + 1) & mask)
        {
            var entry = table[slot];
            if (entry.Key is null)
            {
                id = 0;
                return false;
            }

            if (key.SequenceEqual(entry.Key))
            {
                id = entry.Id;
                return true;
            }
        }
    }

    public void Add(ReadOnlySpan<byte> key, ushort id)
    {
        lock (_writeLock)
        {
            if (TryGet(key, out _))
            {
                return;
            }

            var table = _table;
            if ((_count + 1) * 2 > table.Length)
            {
                var grown = new Entry[table.Length * 2];
                foreach (var entry in table)
                {
                    if (entry.Key is not null)
                    {
                        Insert(grown, entry);
                    }
                }

                table = grown;
            }
            else
            {
                table = (Entry[])table.Clone();
            }

            Insert(table, new Entry(key.ToArray(), id));
            _count++;
            _table = table;
        }
    }

    private static void Insert(Entry[] table, Entry entry)
    {
        var mask = table.Length - 1;
        var slot = (int)Hash(entry.Key) & mask;
        while (table[slot].Key is not null)
        {
            slot = (slot + 1) & mask;
        }

        table[slot] = entry;
    }

    private static uint Hash(ReadOnlySpan<byte> key)
    {
        var hash = 2166136261u;
        foreach (var b in key)
        {
            hash = (hash ^ b) * 16777619u;
        }

        return hash;
    }

    private readonly record struct Entry(byte[] Key, ushort Id);
}
