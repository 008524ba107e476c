using System.Globalization;
using BLite.Generators.Model;

namespace BLite.Generators.Emitting;

/// <summary>
/// Emits JsonbWrite methods: the same walk as the C-BSON writer (same members, same order, same
/// depth guard, same discriminator), each value in its jsonb form.
/// </summary>
internal sealed partial class MapperEmitter
{
    private static readonly WriteTarget JsonbTarget = new("JsonbWrite", $"{JsonWriterType} writer", "writer");

    private void EmitJsonbWriteMethods(ObjectTypeSpec type)
    {
        var w = _writer;
        if (type.CanConstruct || !type.IsPolymorphic)
        {
            var discriminator = type.IsDerivedType ? ", global::System.ReadOnlySpan<byte> discriminator" : "";
            w.Open($"private void JsonbWrite{type.MethodSuffix}({type.TypeName} value, {JsonWriterType} writer, int depth{discriminator})");
            EmitDepthGuard(type);
            w.Line();
            w.Line("writer.WriteStartObject();");
            if (type.IsDerivedType)
            {
                w.Open("if (!discriminator.IsEmpty)");
                w.Line($"writer.WritePropertyName({JsonbKey(Bson.Mapping.MappingConventions.DiscriminatorFieldName)});");
                w.Line("writer.WriteStringValue(discriminator);");
                w.Close();
            }

            foreach (var member in type.Members)
            {
                w.Line($"writer.WritePropertyName({JsonbKey(member.StoredName)});");
                JsonbWriteValue(member.Value, MemberValue(member, "value"), 0);
            }

            w.Line("writer.WriteEndObject();");
            w.Close();
            w.Line();
        }

        if (type.IsPolymorphic)
        {
            EmitPolymorphicWrite(type, JsonbTarget);
        }
    }

    /// <summary>Writes one value after its key (or as an array item); <paramref name="level"/> as in WriteValue.</summary>
    private void JsonbWriteValue(ValueSpec value, string expression, int level)
    {
        var w = _writer;
        if (value.IsReferenceType || value.Kind == ValueKind.Nullable)
        {
            var local = Temp("v");
            w.Line($"var {local} = {expression};");
            if (value.Kind == ValueKind.Nullable)
            {
                w.Open($"if ({local}.HasValue)");
                JsonbWriteValue(value.Element!, local + ".GetValueOrDefault()", level);
            }
            else
            {
                w.Open($"if ({local} is not null)");
                JsonbWriteNonNull(value, local, level);
            }

            w.Close();
            w.Open("else");
            w.Line("writer.WriteNullValue();");
            w.Close();
            return;
        }

        JsonbWriteNonNull(value, expression, level);
    }

    private void JsonbWriteNonNull(ValueSpec value, string expression, int level)
    {
        var w = _writer;
        switch (value.Kind)
        {
            case ValueKind.Enum:
                JsonbWriteNonNull(value.Element!, $"({value.Element!.TypeName}){expression}", level);
                return;
            case ValueKind.Object:
                w.Line(WriteCall(_spec.Types[value.TypeIndex], value.IsPolymorphic, expression, "depth + " + (level + 1).ToString(CultureInfo.InvariantCulture), JsonbTarget) + ";");
                return;
            case ValueKind.Collection:
                JsonbWriteCollection(value, expression, level);
                return;
            case ValueKind.Dictionary:
                var entry = Temp("entry");
                w.Line("writer.WriteStartObject();");
                w.Open($"foreach (var {entry} in {expression})");
                w.Line($"{JsonbWriterHelper}WriteDictionaryKey(writer, {entry}.Key);");
                JsonbWriteValue(value.Element!, entry + ".Value", level + 1);
                w.Close();
                w.Line("writer.WriteEndObject();");
                return;
            case ValueKind.DocumentRef:
                JsonbWriteNonNull(value.Element!, expression + ".Id", level);
                return;
            case ValueKind.ConvertedId:
                w.Line($"{JsonbWriterHelper}WriteKey(writer, _idConverter.ToKey({expression}));");
                return;
        }

        w.Line(value.Kind switch
        {
            ValueKind.String => $"{JsonbWriterHelper}WriteString(writer, {expression});",
            ValueKind.Boolean => $"writer.WriteBooleanValue({expression});",
            ValueKind.Double or ValueKind.Single => $"{JsonbWriterHelper}WriteDouble(writer, {expression});",
            ValueKind.Int32 or ValueKind.Int16 or ValueKind.SByte or ValueKind.Byte or ValueKind.UInt16 or ValueKind.Char => $"writer.WriteNumberValue((int)({expression}));",
            ValueKind.Int64 or ValueKind.UInt32 => $"{JsonbWriterHelper}WriteInt64(writer, {expression});",
            ValueKind.UInt64 => $"{JsonbWriterHelper}WriteUInt64(writer, {expression});",
            ValueKind.Decimal => $"{JsonbWriterHelper}WriteDecimal(writer, {expression});",
            ValueKind.Guid => $"{JsonbWriterHelper}WriteGuid(writer, {expression});",
            ValueKind.ObjectId => $"{JsonbWriterHelper}WriteObjectId(writer, {expression});",
            ValueKind.DateTime => $"{JsonbWriterHelper}WriteDateTime(writer, {expression});",
            ValueKind.DateTimeOffset => $"{JsonbWriterHelper}WriteDateTimeOffset(writer, {expression});",
            ValueKind.TimeSpan => $"{JsonbWriterHelper}WriteTimeSpan(writer, {expression});",
            ValueKind.DateOnly => $"{JsonbWriterHelper}WriteDateOnly(writer, {expression});",
            ValueKind.TimeOnly => $"{JsonbWriterHelper}WriteTimeOnly(writer, {expression});",
            ValueKind.Float32Vector => $"{JsonbWriterHelper}WriteFloat32Vector(writer, {expression});",
            ValueKind.Float32VectorMemory => $"{JsonbWriterHelper}WriteFloat32Vector(writer, {expression}.Span);",
            _ => $"{JsonbWriterHelper}WriteBinary(writer, {expression}, global::BLite.Bson.BsonBinarySubtype.Generic);",
        });
    }

    private void JsonbWriteCollection(ValueSpec value, string expression, int level)
    {
        var w = _writer;
        var item = Temp("item");
        w.Line("writer.WriteStartArray();");
        switch (value.Collection)
        {
            case CollectionKind.List:
                w.Open($"foreach (var {item} in global::System.Runtime.InteropServices.CollectionsMarshal.AsSpan({expression}))");
                break;
            case CollectionKind.IList:
            case CollectionKind.IReadOnlyList:
                var index = Temp("i");
                w.Open($"for (var {index} = 0; {index} < {expression}.Count; {index}++)");
                w.Line($"var {item} = {expression}[{index}];");
                break;
            default:
                w.Open($"foreach (var {item} in {expression})");
                break;
        }

        JsonbWriteValue(value.Element!, item, level + 1);
        w.Close();
        w.Line("writer.WriteEndArray();");
    }
}
