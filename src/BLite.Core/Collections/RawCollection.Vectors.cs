using System.Buffers.Binary;
using BLite.Bson;
using BLite.Core.BTrees;
using BLite.Core.Collections.Catalog;
using BLite.Core.Documents;
using BLite.Core.Storage;
using BLite.Core.Vectors;

namespace BLite.Core.Collections;

internal sealed partial class RawCollection
{
    /// <summary>The vector indexes as the snapshot sees them.</summary>
    public IReadOnlyList<VectorIndexDefinition> GetVectorIndexes(IPageReader pages)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var collection = Resolve(pages);
        return collection is null ? [] : collection.VectorIndexes.Select(static index => index.Definition).ToArray();
    }

    /// <summary>
    /// Creates the vector index (and the collection, if missing) and adds every stored document
    /// that has a vector at its path. Every vector is checked first, so a bad one refuses the whole
    /// build before anything is written. <paramref name="progress"/> receives the number of
    /// documents indexed so far. False when an identical index exists; a different definition
    /// under the same name is refused.
    /// </summary>
    public bool EnsureVectorIndex(IPageWriter pages, VectorIndexDefinition definition, IProgress<long>? progress = null)
    {
        ArgumentNullException.ThrowIfNull(pages);
        ArgumentNullException.ThrowIfNull(definition);
        var collection = Resolve(pages);
        var existing = collection?.FindVectorIndex(definition.Name);
        if (existing is not null)
        {
            if (existing.Definition.Equals(definition))
            {
                return false;
            }

            throw new BLiteException(
                $"Collection '{Name}' already has a vector index '{definition.Name}' defined as {existing.Definition}; drop it before redefining it as {definition}.");
        }

        if (collection?.FindIndex(definition.Name) is not null)
        {
            throw new BLiteException($"Collection '{Name}' already has an index named '{definition.Name}'.");
        }

        var info = new VectorIndexInfo(definition, 0);
        if (collection is not null)
        {
            ForEachVector(pages, collection, info, static (_, _, _) => { });
        }

        collection ??= _database.Catalog.CreateCollection(pages, Name);
        info = new VectorIndexInfo(definition, HnswGraph.Create(pages));
        var graph = info.Open();
        long done = 0;
        ForEachVector(pages, collection, info, (primaryKey, vector, _) =>
        {
            graph.Insert(pages, primaryKey, vector);
            progress?.Report(++done);
        });

        var vectorIndexes = new List<VectorIndexInfo>(collection.VectorIndexes) { info };
        _database.Catalog.ReplaceCollection(pages, collection.WithVectorIndexes(vectorIndexes));
        return true;
    }

    /// <summary>Drops the vector index and frees its pages; false when there is no such index.</summary>
    public bool DropVectorIndex(IPageWriter pages, string indexName)
    {
        ArgumentNullException.ThrowIfNull(pages);
        ArgumentNullException.ThrowIfNull(indexName);
        var collection = Resolve(pages);
        var index = collection?.FindVectorIndex(indexName);
        if (collection is null || index is null)
        {
            return false;
        }

        index.Open().Drop(pages);
        var remaining = collection.VectorIndexes.Where(other => !ReferenceEquals(other, index)).ToList();
        _database.Catalog.ReplaceCollection(pages, collection.WithVectorIndexes(remaining));
        return true;
    }

    internal VectorIndexInfo? FindVectorIndex(IPageReader pages, string indexName) => Resolve(pages)?.FindVectorIndex(indexName);

    /// <summary>
    /// The prepared vector of every vector index for one document (null where the path is missing
    /// or null), checked before anything is written.
    /// </summary>
    private float[]?[]? ExtractVectors(ReadOnlySpan<byte> document, CollectionInfo collection)
    {
        if (collection.VectorIndexes.Count == 0)
        {
            return null;
        }

        var vectors = new float[]?[collection.VectorIndexes.Count];
        for (var i = 0; i < vectors.Length; i++)
        {
            vectors[i] = ExtractVector(document, collection.VectorIndexes[i]);
        }

        return vectors;
    }

    internal float[]? ExtractVector(ReadOnlySpan<byte> document, VectorIndexInfo index)
    {
        var values = new List<FieldValueRef>(1);
        FieldValueExtractor.Collect(document, index.Path, _database.Fields, values);
        var definition = index.Definition;
        if (values.Count == 1 && values[0].Type == BsonType.Null)
        {
            return null;
        }

        if (values.Count != 1 || values[0].Type != BsonType.Binary)
        {
            throw new BLiteVectorException(
                $"Field '{definition.FieldPath}' of a document in collection '{Name}' holds {(values.Count == 1 ? "a " + values[0].Type : values.Count + " values")}; vector index '{definition.Name}' needs one float32 vector (binary subtype 9).");
        }

        var raw = values[0].Bytes(document);
        var length = BinaryPrimitives.ReadInt32LittleEndian(raw);
        var payload = raw.Slice(5, length);
        var dimensions = BsonVector.GetFloat32Dimensions(payload);
        if ((BsonBinarySubtype)raw[4] != BsonBinarySubtype.Vector || dimensions < 0)
        {
            throw new BLiteVectorException(
                $"Field '{definition.FieldPath}' of a document in collection '{Name}' holds binary subtype {raw[4]} of {length} bytes; vector index '{definition.Name}' needs a float32 vector (binary subtype 9, dtype 0x27).");
        }

        var components = BsonVector.ToFloat32Array(payload);
        var prepared = new float[components.Length];
        VectorDistance.Prepare(definition, components, prepared, $"The vector at '{definition.FieldPath}' of a document in collection '{Name}'");
        return prepared;
    }

    private static void AddVectors(IPageWriter pages, CollectionInfo collection, float[]?[]? vectors, ReadOnlySpan<byte> primaryKey)
    {
        if (vectors is null)
        {
            return;
        }

        for (var i = 0; i < vectors.Length; i++)
        {
            if (vectors[i] is { } vector)
            {
                collection.VectorIndexes[i].Open().Insert(pages, primaryKey, vector);
            }
        }
    }

    /// <summary>An unchanged vector keeps its node; a changed one is removed (neighbours repaired) and inserted again.</summary>
    private static void ReplaceVectors(IPageWriter pages, CollectionInfo collection, float[]?[]? previous, float[]?[]? vectors, ReadOnlySpan<byte> primaryKey)
    {
        if (vectors is null || previous is null)
        {
            return;
        }

        for (var i = 0; i < vectors.Length; i++)
        {
            if (previous[i] is { } before && vectors[i] is { } after && before.AsSpan().SequenceEqual(after))
            {
                continue;
            }

            var graph = collection.VectorIndexes[i].Open();
            graph.Delete(pages, primaryKey);
            if (vectors[i] is { } vector)
            {
                graph.Insert(pages, primaryKey, vector);
            }
        }
    }

    private void ForEachVector(IPageReader pages, CollectionInfo collection, VectorIndexInfo index, Action<byte[], float[], long> action)
    {
        var cursor = TreeCursor.Open(Primary(collection), pages, KeyRange.All, descending: false);
        long position = 0;
        while (cursor.MoveNext())
        {
            var primaryKey = cursor.Key.ToArray();
            if (ExtractVector(cursor.Value.Span, index) is { } vector)
            {
                action(primaryKey, vector, position++);
            }
        }
    }
}
