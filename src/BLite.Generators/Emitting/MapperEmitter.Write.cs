using System.Globalization;
using BLite.Generators.Model;

namespace BLite.Generators.Emitting;

internal sealed partial class MapperEmitter
{
    private static readonly WriteTarget BsonTarget = new("Write", $"ref {WriterType} writer", "ref writer");

    /// <summary>The writers' refusal of a value nested deeper than BSON allows, counted from this type's own nesting.</summary>
    private void EmitDepthGuard(ObjectTypeSpec type)
    {
        var nesting = InnerNesting(type);
        _writer.Open($"if (depth{(nesting == 0 ? "" : " + " + nesting.ToString(CultureInfo.InvariantCulture))} > global::BLite.Bson.BsonLimits.MaxDepth)");
        _writer.Line($"throw global::BLite.Bson.Mapping.BsonMappingGuard.TooDeep({Literals.String(type.DisplayName)});");
        _writer.Close();
    }

    private void EmitWriteMethods(ObjectTypeSpec type)
    {
        var w = _writer;
        if (type.CanConstruct || !type.IsPolymorphic)
        {
            var discriminator = type.IsDerivedType ? ", global::System.ReadOnlySpan<byte> discriminator" : "";
            w.Open($"private void Write{type.MethodSuffix}({type.TypeName} value, ref {WriterType} writer, int depth{discriminator})");
            EmitDepthGuard(type);
            w.Line();
            w.Line("var token = writer.BeginDocument();");
            if (type.IsDerivedType)
            {
                w.Open("if (!discriminator.IsEmpty)");
                w.Line($"writer.WriteFieldHeader({BsonTypePrefix}String, {FieldVariable(Bson.Mapping.MappingConventions.DiscriminatorFieldName)});");
                w.Line("writer.WriteStringUtf8(discriminator);");
                w.Close();
            }

            foreach (var member in type.Members)
            {
                var header = $"writer.WriteFieldHeader({BsonTypePrefix}{{0}}, {FieldVariable(member.StoredName)});";
                WriteValue(member.Value, MemberValue(member, "value"), header, 0);
            }

            w.Line("writer.EndDocument(token);");
            w.Close();
            w.Line();
        }

        if (type.IsPolymorphic)
        {
            EmitPolymorphicWrite(type, BsonTarget);
        }
    }

    private void EmitPolymorphicWrite(ObjectTypeSpec type, WriteTarget target)
    {
        var w = _writer;
        w.Open($"private void {target.Prefix}{type.MethodSuffix}Any({type.TypeName} value, {target.Parameter}, int depth)");
        w.Open("switch (value)");
        foreach (var derived in type.DerivedTypes)
        {
            var derivedType = _spec.Types[derived.TypeIndex];
            w.Line($"case {derived.TypeName} derived:");
            w.Line($"    {target.Prefix}{derivedType.MethodSuffix}(derived, {target.Argument}, depth, {Literals.Utf8(derived.Discriminator)});");
            w.Line("    return;");
        }

        w.Close();
        if (type.CanConstruct)
        {
            w.Open($"if (value.GetType() != typeof({type.TypeName}))");
            w.Line($"throw global::BLite.Bson.Mapping.BsonMappingGuard.UndeclaredDerivedType(value, {Literals.String(type.DisplayName)});");
            w.Close();
            w.Line();
            w.Line(WriteCall(type, polymorphic: false, "value", "depth", target) + ";");
        }
        else
        {
            w.Line($"throw global::BLite.Bson.Mapping.BsonMappingGuard.UndeclaredDerivedType(value, {Literals.String(type.DisplayName)});");
        }

        w.Close();
        w.Line();
    }

    private static string WriteCall(ObjectTypeSpec type, bool polymorphic, string value, string depth, WriteTarget target)
    {
        if (polymorphic)
        {
            return $"{target.Prefix}{type.MethodSuffix}Any({value}, {target.Argument}, {depth})";
        }

        return type.IsDerivedType
            ? $"{target.Prefix}{type.MethodSuffix}({value}, {target.Argument}, {depth}, default)"
            : $"{target.Prefix}{type.MethodSuffix}({value}, {target.Argument}, {depth})";
    }

    /// <summary>
    /// Writes one value with the header given as a format string ({0} = BsonType member).
    /// <paramref name="level"/> is how many documents/arrays deep, below the type's own document, the value sits.
    /// </summary>
    private void WriteValue(ValueSpec value, string expression, string header, int level)
    {
        var w = _writer;
        if (value.IsReferenceType || value.Kind == ValueKind.Nullable)
        {
            var local = Temp("v");
            w.Line($"var {local} = {expression};");
            if (value.Kind == ValueKind.Nullable)
            {
                w.Open($"if ({local}.HasValue)");
                WriteValue(value.Element!, local + ".GetValueOrDefault()", header, level);
            }
            else
            {
                w.Open($"if ({local} is not null)");
                WriteNonNull(value, local, header, level);
            }

            w.Close();
            w.Open("else");
            w.Line(string.Format(CultureInfo.InvariantCulture, header, "Null"));
            w.Close();
            return;
        }

        WriteNonNull(value, expression, header, level);
    }

    private void WriteNonNull(ValueSpec value, string expression, string header, int level)
    {
        var w = _writer;
        switch (value.Kind)
        {
            case ValueKind.Enum:
                WriteNonNull(value.Element!, $"({value.Element!.TypeName}){expression}", header, level);
                return;
            case ValueKind.Object:
                w.Line(string.Format(CultureInfo.InvariantCulture, header, "Document"));
                var type = _spec.Types[value.TypeIndex];
                w.Line(WriteCall(type, value.IsPolymorphic, expression, "depth + " + (level + 1).ToString(CultureInfo.InvariantCulture), BsonTarget) + ";");
                return;
            case ValueKind.Collection:
                WriteCollection(value, expression, header, level);
                return;
            case ValueKind.Dictionary:
                WriteDictionary(value, expression, header, level);
                return;
            case ValueKind.DocumentRef:
                WriteNonNull(value.Element!, expression + ".Id", header, level);
                return;
            case ValueKind.ConvertedId:
                w.Line($"_idConverter.Write({expression}, ref writer, {FieldVariable(Bson.Mapping.MappingConventions.IdFieldName)}, _fieldDictionary);");
                return;
        }

        w.Line(string.Format(CultureInfo.InvariantCulture, header, Parsing.MapperParser.BsonTypeName(value)));
        w.Line(value.Kind switch
        {
            ValueKind.String => $"writer.WriteString({expression});",
            ValueKind.Boolean => $"writer.WriteBoolean({expression});",
            ValueKind.Double or ValueKind.Single => $"writer.WriteDouble({expression});",
            ValueKind.Int32 or ValueKind.Int16 or ValueKind.SByte or ValueKind.Byte or ValueKind.UInt16 or ValueKind.Char => $"writer.WriteInt32({expression});",
            ValueKind.Int64 or ValueKind.UInt32 => $"writer.WriteInt64({expression});",
            ValueKind.UInt64 => $"writer.WriteUInt64({expression});",
            ValueKind.Decimal => $"writer.WriteDecimal({expression});",
            ValueKind.Guid => $"writer.WriteGuid({expression});",
            ValueKind.ObjectId => $"writer.WriteObjectId({expression});",
            ValueKind.DateTime => $"writer.WriteDateTime({expression});",
            ValueKind.DateTimeOffset => $"writer.WriteDateTimeOffset({expression});",
            ValueKind.TimeSpan => $"writer.WriteTimeSpan({expression});",
            ValueKind.DateOnly => $"writer.WriteDateOnly({expression});",
            ValueKind.TimeOnly => $"writer.WriteTimeOnly({expression});",
            ValueKind.Float32Vector => $"writer.WriteFloat32Vector({expression});",
            ValueKind.Float32VectorMemory => $"writer.WriteFloat32Vector({expression}.Span);",
            _ => $"writer.WriteBinary({expression}, global::BLite.Bson.BsonBinarySubtype.Generic);",
        });
    }

    private void WriteCollection(ValueSpec value, string expression, string header, int level)
    {
        var w = _writer;
        var token = Temp("array");
        var item = Temp("item");
        w.Line(string.Format(CultureInfo.InvariantCulture, header, "Array"));
        w.Line($"var {token} = writer.BeginArray();");
        switch (value.Collection)
        {
            case CollectionKind.List:
                // A span over the list's array: no enumerator, no version checks.
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

        WriteValue(value.Element!, item, "writer.WriteItemHeader(" + BsonTypePrefix + "{0});", level + 1);
        w.Close();
        w.Line($"writer.EndArray({token});");
    }

    private void WriteDictionary(ValueSpec value, string expression, string header, int level)
    {
        var w = _writer;
        var token = Temp("document");
        var entry = Temp("entry");
        w.Line(string.Format(CultureInfo.InvariantCulture, header, "Document"));
        w.Line($"var {token} = writer.BeginDocument();");
        w.Open($"foreach (var {entry} in {expression})");
        WriteValue(value.Element!, entry + ".Value", $"writer.WriteFieldHeader({BsonTypePrefix}{{0}}, _fieldDictionary.GetOrAdd({entry}.Key));", level + 1);
        w.Close();
        w.Line($"writer.EndDocument({token});");
    }

    /// <summary>
    /// How many arrays and dictionaries a type's members nest below its own document before the
    /// next embedded object (which checks its own depth): the writer must never be the one to
    /// refuse the depth, so the generated check adds this much.
    /// </summary>
    private static int InnerNesting(ObjectTypeSpec type)
    {
        var max = 0;
        foreach (var member in type.Members)
        {
            max = System.Math.Max(max, Nesting(member.Value));
        }

        return max;
    }

    private static int Nesting(ValueSpec value) => value.Kind switch
    {
        ValueKind.Nullable => Nesting(value.Element!),
        ValueKind.Collection or ValueKind.Dictionary => 1 + Nesting(value.Element!),
        _ => 0,
    };

    /// <summary>Which writer methods a call goes to: C-BSON (<c>Write…(…, ref writer, …)</c>) or jsonb (<c>JsonbWrite…(…, writer, …)</c>).</summary>
    private readonly record struct WriteTarget(string Prefix, string Parameter, string Argument);
}
