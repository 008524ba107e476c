using BLite.Bson;
using BLite.PostgreSql.Jsonb;
using BLite.Serialization;

namespace BLite.PostgreSql.Query;

/// <summary>
/// Reads one projected row, <c>{"v": [values...]}</c> in BLite's jsonb form, into the values the
/// LINQ layer converts to members. Field names of projected documents go to a dictionary of this
/// query's own, so a projection never adds names to the context's dictionary.
/// </summary>
internal sealed class ProjectedRow(int count)
{
    private readonly BsonFieldDictionary _fields = new();

    public BsonValue[] Read(byte[] jsonb)
    {
        using var bson = DocumentBuffer.Rent();
        var writer = new BsonSpanWriter(bson);
        JsonbReader.ReadDocument(jsonb, ref writer, _fields);
        writer.Flush();
        var items = BsonDocument.FromBytes(bson.WrittenSpan, _fields)["v"].AsArray;
        var row = new BsonValue[count];
        for (var i = 0; i < row.Length; i++)
        {
            row[i] = items[i];
        }

        return row;
    }
}
