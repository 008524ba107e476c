using System.Text.Json;
using BLite.Core.Query;

namespace BLite.Core.Vectors;

/// <summary>
/// The JSON form of a nearest-neighbour search, for the schemaless API and the CLI
/// (docs/vector.md, "JSON"):
/// <code>
/// { "path": "embedding", "vector": [0.12, -0.4, ...], "k": 10, "ef": 64, "filter": { "folder": "work" } }
/// </code>
/// <c>path</c>, <c>vector</c> and <c>k</c> are required; <c>ef</c> and <c>filter</c> (a JSON
/// filter, docs/query.md) are optional. Errors raise <see cref="JsonFilterException"/> naming the
/// member.
/// </summary>
internal static class VectorSearchJson
{
    public static VectorQuery Parse(string json)
    {
        ArgumentNullException.ThrowIfNull(json);
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(json);
        }
        catch (JsonException ex)
        {
            throw new JsonFilterException($"The vector search is not valid JSON: {ex.Message}", ex.BytePositionInLine ?? 0);
        }

        using (document)
        {
            var root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
            {
                throw Invalid("a vector search must be a JSON object", null);
            }

            string? path = null;
            float[]? vector = null;
            int? k = null;
            int? ef = null;
            QueryFilter? filter = null;
            foreach (var member in root.EnumerateObject())
            {
                switch (member.Name)
                {
                    case "path":
                        path = member.Value.ValueKind == JsonValueKind.String ? member.Value.GetString() : throw Invalid("'path' must be a string", "path");
                        break;
                    case "vector":
                        vector = ReadVector(member.Value);
                        break;
                    case "k":
                        k = member.Value.TryGetInt32(out var kValue) && kValue >= 1 ? kValue : throw Invalid("'k' must be a positive integer", "k");
                        break;
                    case "ef":
                        ef = member.Value.TryGetInt32(out var efValue) && efValue >= 1 ? efValue : throw Invalid("'ef' must be a positive integer", "ef");
                        break;
                    case "filter":
                        filter = member.Value.ValueKind == JsonValueKind.Object ? JsonFilterParser.Parse(member.Value.GetRawText()) : throw Invalid("'filter' must be a JSON filter object", "filter");
                        break;
                    default:
                        throw Invalid($"unknown member '{member.Name}' (expected path, vector, k, ef, filter)", member.Name);
                }
            }

            return new VectorQuery(
                path ?? throw Invalid("'path' (the indexed vector field) is required", "path"),
                vector ?? throw Invalid("'vector' (an array of numbers) is required", "vector"),
                k ?? throw Invalid("'k' (how many results) is required", "k"),
                filter,
                ef);
        }
    }

    private static float[] ReadVector(JsonElement value)
    {
        if (value.ValueKind != JsonValueKind.Array)
        {
            throw Invalid("'vector' must be an array of numbers", "vector");
        }

        var vector = new float[value.GetArrayLength()];
        var i = 0;
        foreach (var item in value.EnumerateArray())
        {
            if (!item.TryGetSingle(out vector[i]))
            {
                throw Invalid($"'vector' item {i} is not a number", "vector");
            }

            i++;
        }

        return vector;
    }

    private static JsonFilterException Invalid(string message, string? token) => new($"Invalid vector search: {message}.", 0, token);
}
