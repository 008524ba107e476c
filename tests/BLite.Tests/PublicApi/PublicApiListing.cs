using System.Reflection;
using System.Text;

namespace BLite.Tests.PublicApi;

/// <summary>
/// Writes an assembly's public surface as sorted text, one declaration per line, so that a change
/// to the surface shows up as a diff of the checked-in baseline. Nullability annotations and
/// attributes are left out: the listing names what a caller can reach, not how it is decorated.
/// </summary>
internal static class PublicApiListing
{
    private const BindingFlags Declared =
        BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;

    public static string Describe(Assembly assembly)
    {
        var lines = new List<string>();
        foreach (var type in assembly.GetExportedTypes())
        {
            var name = TypeName(type);
            lines.Add(TypeHeader(type, name));
            foreach (var member in type.GetMembers(Declared))
            {
                var line = MemberLine(type, member);
                if (line is not null)
                {
                    lines.Add(name + " :: " + line);
                }
            }
        }

        lines.Sort(StringComparer.Ordinal);
        var text = new StringBuilder();
        foreach (var line in lines)
        {
            text.Append(line).Append('\n');
        }

        return text.ToString();
    }

    private static string TypeHeader(Type type, string name)
    {
        string kind = type.IsInterface ? "interface"
            : type.IsEnum ? "enum"
            : type.IsValueType ? "struct"
            : typeof(Delegate).IsAssignableFrom(type) ? "delegate"
            : type.IsAbstract && type.IsSealed ? "static class"
            : type.IsAbstract ? "abstract class"
            : type.IsSealed ? "sealed class"
            : "class";
        var bases = new List<string>();
        if (type.BaseType is { } baseType && baseType != typeof(object) && baseType != typeof(ValueType) && baseType != typeof(Enum))
        {
            bases.Add(TypeName(baseType));
        }

        bases.AddRange(type.GetInterfaces().Where(i => i.IsPublic || i.IsNestedPublic).Select(TypeName).Order(StringComparer.Ordinal));
        return name + " = " + kind + (bases.Count == 0 ? "" : " : " + string.Join(", ", bases));
    }

    private static string? MemberLine(Type owner, MemberInfo member)
    {
        if (member.Name.StartsWith('<'))
        {
            return null;
        }

        switch (member)
        {
            case ConstructorInfo constructor when Visible(constructor):
                return (constructor.IsStatic ? "static " : "") + "ctor(" + Parameters(constructor) + ")";
            case MethodInfo method when Visible(method) && !method.IsSpecialName || method is { IsSpecialName: true } && method.Name.StartsWith("op_", StringComparison.Ordinal) && Visible(method):
                var generic = method.IsGenericMethodDefinition ? "<" + string.Join(", ", method.GetGenericArguments().Select(a => a.Name)) + ">" : "";
                return Modifiers(method) + TypeName(method.ReturnType) + " " + method.Name + generic + "(" + Parameters(method) + ")";
            case PropertyInfo property:
                var accessors = new[] { ("get", property.GetMethod), ("set", property.SetMethod) }
                    .Where(a => a.Item2 is not null && Visible(a.Item2))
                    .Select(a => a.Item2!.ReturnParameter.GetRequiredCustomModifiers().Any(m => m.Name == "IsExternalInit") ? "init" : a.Item1)
                    .ToList();
                if (accessors.Count == 0)
                {
                    return null;
                }

                var indexer = property.GetIndexParameters();
                var accessor = property.GetMethod ?? property.SetMethod!;
                var propertyName = indexer.Length == 0 ? property.Name : "this[" + string.Join(", ", indexer.Select(Parameter)) + "]";
                return Modifiers(accessor) + TypeName(property.PropertyType) + " " + propertyName + " { " + string.Join("; ", accessors) + "; }";
            case FieldInfo field when field.IsPublic || field.IsFamily || field.IsFamilyOrAssembly:
                if (owner.IsEnum)
                {
                    return field.IsSpecialName ? null : field.Name + " = " + Convert.ToString(field.GetRawConstantValue(), System.Globalization.CultureInfo.InvariantCulture);
                }

                return (field.IsLiteral ? "const " : field.IsStatic ? "static " : "") + (field.IsInitOnly ? "readonly " : "") + TypeName(field.FieldType) + " " + field.Name;
            case EventInfo @event when @event.AddMethod is { } add && Visible(add):
                return "event " + TypeName(@event.EventHandlerType!) + " " + @event.Name;
            case Type nested:
                return null;
            default:
                return null;
        }
    }

    private static bool Visible(MethodBase method) => method.IsPublic || method.IsFamily || method.IsFamilyOrAssembly;

    private static string Modifiers(MethodInfo method) =>
        (method.IsFamily || method.IsFamilyOrAssembly ? "protected " : "")
        + (method.IsStatic ? "static " : "")
        + (method.IsAbstract && !method.DeclaringType!.IsInterface ? "abstract " : method.IsVirtual && !method.IsFinal && method.GetBaseDefinition() == method && !method.DeclaringType!.IsInterface ? "virtual " : "")
        + (method.IsVirtual && method.GetBaseDefinition() != method ? "override " : "");

    private static string Parameters(MethodBase method) => string.Join(", ", method.GetParameters().Select(Parameter));

    private static string Parameter(ParameterInfo parameter)
    {
        var type = parameter.ParameterType;
        var prefix = "";
        if (type.IsByRef)
        {
            prefix = parameter.IsOut ? "out " : parameter.IsIn ? "in " : "ref ";
            type = type.GetElementType()!;
        }

        if (parameter.GetCustomAttributes(typeof(ParamArrayAttribute), false).Length > 0)
        {
            prefix = "params ";
        }

        var text = prefix + TypeName(type) + " " + parameter.Name;
        if (parameter.HasDefaultValue)
        {
            text += " = " + (parameter.DefaultValue is null ? (type.IsValueType ? "default" : "null") : Convert.ToString(parameter.DefaultValue, System.Globalization.CultureInfo.InvariantCulture));
        }

        return text;
    }

    private static string TypeName(Type type)
    {
        if (type.IsGenericParameter)
        {
            return type.Name;
        }

        if (type.IsArray)
        {
            return TypeName(type.GetElementType()!) + "[" + new string(',', type.GetArrayRank() - 1) + "]";
        }

        if (type.IsByRef)
        {
            return "ref " + TypeName(type.GetElementType()!);
        }

        if (type.IsPointer)
        {
            return TypeName(type.GetElementType()!) + "*";
        }

        var name = type.Name;
        var tick = name.IndexOf('`');
        if (tick >= 0)
        {
            name = name[..tick];
        }

        var prefix = type.IsNested ? TypeName(type.DeclaringType!.IsGenericTypeDefinition ? type.DeclaringType : type.DeclaringType) + "." : type.Namespace + ".";
        if (!type.IsGenericType)
        {
            return prefix + name;
        }

        var arguments = type.GetGenericArguments();
        var own = type.IsNested ? arguments.Skip(type.DeclaringType!.GetGenericArguments().Length) : arguments;
        var ownList = own.ToList();
        return prefix + name + (ownList.Count == 0 ? "" : "<" + string.Join(", ", ownList.Select(TypeName)) + ">");
    }
}
