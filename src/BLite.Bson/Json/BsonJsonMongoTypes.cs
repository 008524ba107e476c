using System.Globalization;
using System.Text;

namespace BLite.Bson;

/// <summary>
/// The Extended JSON v2 forms of the BSON types that exist for MongoDB interop. They are the same
/// in canonical and relaxed mode, except that a code-with-scope's scope document follows the mode.
/// </summary>
internal static class BsonJsonMongoTypes
{
    public static bool TryWrite(StringBuilder builder, BsonValue value, BsonJsonMode mode)
    {
        var invariant = CultureInfo.InvariantCulture;
        switch (value.Type)
        {
            case BsonType.MinKey:
                builder.Append("{\"$minKey\":1}");
                return true;
            case BsonType.MaxKey:
                builder.Append("{\"$maxKey\":1}");
                return true;
            case BsonType.Undefined:
                builder.Append("{\"$undefined\":true}");
                return true;
            case BsonType.Timestamp:
                var timestamp = value.AsTimestamp;
                builder.Append("{\"$timestamp\":{\"t\":").Append(timestamp.Seconds.ToString(invariant))
                    .Append(",\"i\":").Append(timestamp.Increment.ToString(invariant)).Append("}}");
                return true;
            case BsonType.Regex:
                builder.Append("{\"$regularExpression\":{\"pattern\":");
                BsonJsonWriter.AppendString(builder, value.AsRegex.Pattern);
                builder.Append(",\"options\":");
                BsonJsonWriter.AppendString(builder, value.AsRegex.Options);
                builder.Append("}}");
                return true;
            case BsonType.Symbol:
                builder.Append("{\"$symbol\":");
                BsonJsonWriter.AppendString(builder, value.AsSymbol.Name);
                builder.Append('}');
                return true;
            case BsonType.JavaScript:
                builder.Append("{\"$code\":");
                BsonJsonWriter.AppendString(builder, value.AsJavaScript.Code);
                builder.Append('}');
                return true;
            case BsonType.JavaScriptWithScope:
                builder.Append("{\"$code\":");
                BsonJsonWriter.AppendString(builder, value.AsJavaScriptWithScope.Code);
                builder.Append(",\"$scope\":");
                BsonJsonWriter.AppendDocument(builder, value.AsJavaScriptWithScope.Scope, mode);
                builder.Append('}');
                return true;
            case BsonType.DbPointer:
                builder.Append("{\"$dbPointer\":{\"$ref\":");
                BsonJsonWriter.AppendString(builder, value.AsDbPointer.Namespace);
                builder.Append(",\"$id\":{\"$oid\":\"").Append(value.AsDbPointer.Id.ToString()).Append("\"}}}");
                return true;
            default:
                return false;
        }
    }
}
