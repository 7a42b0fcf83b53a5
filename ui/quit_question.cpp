// Quitting: Esc, File > Quit and the window's close button end the session at
// once, unless recorded runs would be lost (they live only in memory until
// exported); then a question.
#include <imgui.h>

#include <string>

#include "app/app_state.h"
#include "ui/panels.h"

namespace ks {

namespace {
constexpr const char* kQuestion = "Quit kernelscope?";
}  // namespace

void requestQuit(AppState& state) {
  if (state.headless || state.runs.unexportedRuns() == 0) {
    state.commands.push(Quit{});
    return;
  }
  state.quitConfirmShown = true;
}

void answerQuitQuestion(AppState& state, QuitChoice choice) {
  state.quitConfirmShown = false;
  switch (choice) {
    case QuitChoice::Quit: state.commands.push(Quit{}); break;
    case QuitChoice::ExportAndQuit:
      // Quits only once the runs are written; otherwise the Runs panel's message says why.
      if (exportAllRuns(state.runs, true)) state.commands.push(Quit{});
      else state.runs.showRuns = true;
      break;
    case QuitChoice::Cancel: break;
  }
}

void drawQuitQuestion(AppState& state) {
  if (!state.quitConfirmShown) return;
  if (!ImGui::IsPopupOpen(kQuestion)) ImGui::OpenPopup(kQuestion);
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.4f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(kQuestion, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  const size_t n = state.runs.unexportedRuns();
  ImGui::Text("%zu recorded run%s not exported: %s lost when kernelscope quits.", n, n == 1 ? " is" : "s are",
              n == 1 ? "it is" : "they are");
  const std::string exportLabel = std::string("Export to ") + state.runs.exportPath + ".json and quit";
  if (ImGui::Button(exportLabel.c_str())) answerQuitQuestion(state, QuitChoice::ExportAndQuit);
  ImGui::SameLine();
  if (ImGui::Button("Quit without exporting")) answerQuitQuestion(state, QuitChoice::Quit);
  ImGui::SameLine();
  // Esc cancels, but not the Esc that asked: ImGui sees that press in the frame the question opens.
  const bool escAgain = !ImGui::IsWindowAppearing() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
  if (ImGui::Button("Cancel") || escAgain)
    answerQuitQuestion(state, QuitChoice::Cancel);
  if (!state.quitConfirmShown) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

}  // namespace ks
