#include "compute/interop/vulkan_exporter.h"

#define VK_NO_PROTOTYPES
#include <dlfcn.h>
#include <vulkan/vulkan.h>

#include <cstring>
#include <map>
#include <mutex>

#include <vector>

namespace ks {

struct VulkanExporter::Device {
  VkDevice device = VK_NULL_HANDLE;
  std::string name;
  VkPhysicalDeviceMemoryProperties memoryProperties{};
  PFN_vkCreateBuffer createBuffer = nullptr;
  PFN_vkDestroyBuffer destroyBuffer = nullptr;
  PFN_vkGetBufferMemoryRequirements bufferRequirements = nullptr;
  PFN_vkAllocateMemory allocateMemory = nullptr;
  PFN_vkFreeMemory freeMemory = nullptr;
  PFN_vkGetMemoryFdKHR getMemoryFd = nullptr;
};

namespace {

std::string vkResultText(VkResult r) {
  switch (r) {
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INVALID_EXTERNAL_HANDLE: return "VK_ERROR_INVALID_EXTERNAL_HANDLE";
    default: return "VkResult " + std::to_string(static_cast<int>(r));
  }
}

void vkCheck(VkResult r, const char* call) {
  if (r != VK_SUCCESS) throw VulkanError(std::string(call) + " failed: " + vkResultText(r));
}

// libvulkan and one instance for the whole process (see the header for why it
// is never destroyed). A failure to set it up is remembered and reported again.
struct VulkanRuntime {
  void* library = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;
  std::map<DeviceUuid, std::unique_ptr<VulkanExporter::Device>> devices;
  std::string error;
  bool missing = false;  // the error was a VulkanMissing (no libvulkan): thrown again as one
};

template <typename Fn>
Fn instanceFn(const VulkanRuntime& rt, const char* name) {
  auto fn = reinterpret_cast<Fn>(rt.getInstanceProcAddr(rt.instance, name));
  if (!fn) throw VulkanError(std::string("Vulkan function ") + name + " not found");
  return fn;
}

void startRuntime(VulkanRuntime& rt) {
  rt.library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!rt.library) throw VulkanMissing("Vulkan not found (libvulkan.so.1 could not be loaded)");
  rt.getInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(rt.library, "vkGetInstanceProcAddr"));
  if (!rt.getInstanceProcAddr) throw VulkanError("libvulkan.so.1 has no vkGetInstanceProcAddr");
  auto createInstance =
      reinterpret_cast<PFN_vkCreateInstance>(rt.getInstanceProcAddr(VK_NULL_HANDLE, "vkCreateInstance"));
  if (!createInstance) throw VulkanError("Vulkan function vkCreateInstance not found");
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "kernelscope";
  app.apiVersion = VK_API_VERSION_1_1;  // external memory and device IDs are core in 1.1
  VkInstanceCreateInfo instanceInfo{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instanceInfo.pApplicationInfo = &app;
  vkCheck(createInstance(&instanceInfo, nullptr, &rt.instance), "vkCreateInstance");
}

VulkanRuntime& runtime() {
  static VulkanRuntime* rt = [] {
    auto* r = new VulkanRuntime();  // never deleted: see the header
    try {
      startRuntime(*r);
    } catch (const VulkanMissing& e) {
      r->error = e.what();
      r->missing = true;
    } catch (const VulkanError& e) {
      r->error = e.what();
    }
    return r;
  }();
  if (!rt->error.empty()) {
    if (rt->missing) throw VulkanMissing(rt->error);
    throw VulkanError(rt->error);
  }
  return *rt;
}

bool hasDeviceExtension(const std::vector<VkExtensionProperties>& list, const char* name) {
  for (const auto& e : list)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

std::unique_ptr<VulkanExporter::Device> createDevice(const VulkanRuntime& rt, const DeviceUuid& uuid) {
  auto enumerate = instanceFn<PFN_vkEnumeratePhysicalDevices>(rt, "vkEnumeratePhysicalDevices");
  auto properties2 = instanceFn<PFN_vkGetPhysicalDeviceProperties2>(rt, "vkGetPhysicalDeviceProperties2");
  auto memoryProperties = instanceFn<PFN_vkGetPhysicalDeviceMemoryProperties>(rt, "vkGetPhysicalDeviceMemoryProperties");
  auto deviceExtensions =
      instanceFn<PFN_vkEnumerateDeviceExtensionProperties>(rt, "vkEnumerateDeviceExtensionProperties");
  auto queueFamilies =
      instanceFn<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(rt, "vkGetPhysicalDeviceQueueFamilyProperties");
  auto vkCreateDeviceFn = instanceFn<PFN_vkCreateDevice>(rt, "vkCreateDevice");
  auto getDeviceProcAddr = instanceFn<PFN_vkGetDeviceProcAddr>(rt, "vkGetDeviceProcAddr");

  uint32_t count = 0;
  vkCheck(enumerate(rt.instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> physicals(count);
  if (count) vkCheck(enumerate(rt.instance, &count, physicals.data()), "vkEnumeratePhysicalDevices");
  auto dev = std::make_unique<VulkanExporter::Device>();
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  for (VkPhysicalDevice p : physicals) {
    VkPhysicalDeviceIDProperties ids{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    props.pNext = &ids;
    properties2(p, &props);
    if (std::memcmp(ids.deviceUUID, uuid.data(), VK_UUID_SIZE) == 0) {
      physical = p;
      dev->name = props.properties.deviceName;
      break;
    }
  }
  if (!physical)
    throw VulkanMissing("no Vulkan device has the OpenCL device's UUID (" + std::to_string(count) + " Vulkan device(s))");

  uint32_t extCount = 0;
  vkCheck(deviceExtensions(physical, nullptr, &extCount, nullptr), "vkEnumerateDeviceExtensionProperties");
  std::vector<VkExtensionProperties> exts(extCount);
  vkCheck(deviceExtensions(physical, nullptr, &extCount, exts.data()), "vkEnumerateDeviceExtensionProperties");
  if (!hasDeviceExtension(exts, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME))
    throw VulkanMissing(dev->name + " lacks " VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);

  uint32_t familyCount = 0;
  queueFamilies(physical, &familyCount, nullptr);
  if (familyCount == 0) throw VulkanError(dev->name + " has no queue families");
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = 0;  // never used: we only allocate memory
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  const char* enabled[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME};
  VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount = 1;
  deviceInfo.ppEnabledExtensionNames = enabled;
  vkCheck(vkCreateDeviceFn(physical, &deviceInfo, nullptr, &dev->device), "vkCreateDevice");
  memoryProperties(physical, &dev->memoryProperties);

  auto deviceFn = [&](const char* name) {
    auto fn = getDeviceProcAddr(dev->device, name);
    if (!fn) throw VulkanError(std::string("Vulkan function ") + name + " not found");
    return fn;
  };
  dev->createBuffer = reinterpret_cast<PFN_vkCreateBuffer>(deviceFn("vkCreateBuffer"));
  dev->destroyBuffer = reinterpret_cast<PFN_vkDestroyBuffer>(deviceFn("vkDestroyBuffer"));
  dev->bufferRequirements = reinterpret_cast<PFN_vkGetBufferMemoryRequirements>(deviceFn("vkGetBufferMemoryRequirements"));
  dev->allocateMemory = reinterpret_cast<PFN_vkAllocateMemory>(deviceFn("vkAllocateMemory"));
  dev->freeMemory = reinterpret_cast<PFN_vkFreeMemory>(deviceFn("vkFreeMemory"));
  dev->getMemoryFd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(deviceFn("vkGetMemoryFdKHR"));
  return dev;
}

}  // namespace

std::shared_ptr<VulkanExporter> VulkanExporter::create(const DeviceUuid& uuid) {
  static std::mutex mutex;
  const std::lock_guard lock(mutex);
  VulkanRuntime& rt = runtime();
  auto& slot = rt.devices[uuid];
  if (!slot) {
    try {
      slot = createDevice(rt, uuid);
    } catch (...) {
      rt.devices.erase(uuid);
      throw;
    }
  }
  return std::shared_ptr<VulkanExporter>(new VulkanExporter(*slot));
}

const std::string& VulkanExporter::deviceName() const { return device_.name; }

std::unique_ptr<ExportedMemory> VulkanExporter::allocate(size_t bytes) const {
  const Device& impl = device_;
  // A buffer only to learn the memory requirements (size, alignment, types) of
  // an exportable buffer; the memory itself is what gets shared.
  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkBufferCreateInfo bufferInfo{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bufferInfo.pNext = &external;
  bufferInfo.size = bytes;
  bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                     VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  vkCheck(impl.createBuffer(impl.device, &bufferInfo, nullptr, &buffer), "vkCreateBuffer");
  VkMemoryRequirements req{};
  impl.bufferRequirements(impl.device, buffer, &req);
  impl.destroyBuffer(impl.device, buffer, nullptr);

  uint32_t typeIndex = UINT32_MAX;
  for (uint32_t i = 0; i < impl.memoryProperties.memoryTypeCount; ++i)
    if ((req.memoryTypeBits & (1u << i)) &&
        (impl.memoryProperties.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) {
      typeIndex = i;
      break;
    }
  if (typeIndex == UINT32_MAX) throw VulkanError("no device-local Vulkan memory type can be exported");

  VkExportMemoryAllocateInfo exportInfo{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  exportInfo.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkMemoryAllocateInfo allocInfo{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocInfo.pNext = &exportInfo;
  allocInfo.allocationSize = req.size;
  allocInfo.memoryTypeIndex = typeIndex;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  vkCheck(impl.allocateMemory(impl.device, &allocInfo, nullptr, &memory), "vkAllocateMemory");

  std::unique_ptr<ExportedMemory> result(new ExportedMemory());
  result->owner_ = shared_from_this();
  result->memory_ = memory;
  result->bytes_ = bytes;
  result->allocationBytes_ = req.size;
  return result;
}

ExportedMemory::~ExportedMemory() {
  if (memory_) owner_->device_.freeMemory(owner_->device_.device, static_cast<VkDeviceMemory>(memory_), nullptr);
}

int ExportedMemory::exportFd() const {
  const auto& impl = owner_->device_;
  VkMemoryGetFdInfoKHR info{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  info.memory = static_cast<VkDeviceMemory>(memory_);
  info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  vkCheck(impl.getMemoryFd(impl.device, &info, &fd), "vkGetMemoryFdKHR");
  return fd;
}

}  // namespace ks
