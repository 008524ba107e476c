using BLite.Bson;
using BLite.Core.Collections;
using BLite.PostgreSql.Storage;

namespace BLite.Cli.Migration;

/// <summary>
/// What a database file's index paths hold, learned from the documents while they are copied (the
/// file has no mapper to ask): the BSON type of the first value found, and whether the path ever
/// crosses an array. The PostgreSQL index of each path follows from that (<see cref="IndexSql"/>).
/// </summary>
internal sealed class PathShapes(IReadOnlyList<IndexDefinition> indexes)
{
    private const int SampledDocuments = 1000;

    private readonly Dictionary<string, (BsonType? Type, bool MultiValued)> _paths = indexes.SelectMany(i => i.FieldPaths).Distinct(StringComparer.Ordinal)
        .ToDictionary(path => path, _ => ((BsonType?)null, false), StringComparer.Ordinal);

    private int _observed;

    public void Observe(ReadOnlySpan<byte> document, BsonFieldDictionary fields)
    {
        if (_paths.Count == 0 || _observed++ >= SampledDocuments)
        {
            return;
        }

        var parsed = BsonDocument.FromBytes(document, fields);
        foreach (var path in _paths.Keys.ToList())
        {
            var (type, multiValued) = _paths[path];
            Walk(parsed, path.Split('.'), 0, ref type, ref multiValued);
            _paths[path] = (type, multiValued);
        }
    }

    public string IndexStatements(string collectionName, IReadOnlyList<IndexDefinition> declared)
    {
        var sql = new System.Text.StringBuilder();
        var gin = false;
        foreach (var index in declared)
        {
            var paths = index.FieldPaths.Select(p => new IndexSql.IndexedPath(p, _paths[p].Type, _paths[p].MultiValued)).ToList();
            if (IndexSql.Statement(collectionName, index.Name, paths, index.Unique) is { } statement)
            {
                sql.Append(statement);
            }
            else
            {
                gin = true;
            }
        }

        return gin ? sql.Append(IndexSql.GinStatement(collectionName)).ToString() : sql.ToString();
    }

    private static void Walk(BsonDocument document, string[] segments, int at, ref BsonType? type, ref bool multiValued)
    {
        if (!document.TryGetValue(segments[at], out var value))
        {
            return;
        }

        if (at == segments.Length - 1)
        {
            if (value.Type == BsonType.Array)
            {
                multiValued = true;
            }
            else if (!value.IsNull)
            {
                type ??= value.Type;
            }

            return;
        }

        if (value.Type == BsonType.Document)
        {
            Walk(value.AsDocument, segments, at + 1, ref type, ref multiValued);
        }
        else if (value.Type == BsonType.Array)
        {
            multiValued = true;
        }
    }
}
